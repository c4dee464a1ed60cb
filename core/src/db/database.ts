import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

// int8 (bigint) columns hold byte counts and ledger ids well below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DatabaseOptions {
  /** Connections this process may hold; PostgreSQL's own limit is shared by every process. */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so an operator sees which process holds which connection. */
  applicationName?: string;
  /** How long a query may wait for a free connection before it fails (a 503 at the API). */
  connectionTimeoutMs?: number;
}

export interface RecordDatabase {
  db: Kysely<Database>;
  pool: pg.Pool;
  /** Whether the database answers within `timeoutMs`. */
  isReady(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export function openDatabase(url: string, options: DatabaseOptions = {}): RecordDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
  });
  // A connection that breaks (a restart, a failover) is replaced on next use, and the query that was on it
  // fails by itself. pg also emits the break as an 'error' event: on the pool for an idle connection, on
  // the client for one that is checked out (between two statements of a transaction, say). Either one,
  // unheard, would take the whole process down.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let closing: Promise<void> | undefined;
  return {
    db,
    pool,
    async isReady(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
      try {
        return await Promise.race([
          pool.query('select 1').then(
            () => true,
            () => false,
          ),
          late,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      closing ??= db.destroy();
      return closing;
    },
  };
}
