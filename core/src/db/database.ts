import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

// int8 (bigint) columns hold byte counts and ledger ids well below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// Dates (the spend tables' UTC days) stay `YYYY-MM-DD`: pg would make them local midnights.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

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

/**
 * Marks a hot statement as prepared: PostgreSQL parses and plans it once per connection instead of on
 * every run (the submit statement spent more time being planned than running). Its text must not vary
 * between runs: values go in as parameters.
 */
export function prepared(name: string) {
  return sql.raw(`/* prepared ${name} */ `);
}

const PREPARED_MARK = /^\/\* prepared ([a-z_]+) \*\/ /;

/** Kysely sends every statement as text and values; one marked `prepared` goes out as a named statement. */
function withPreparedStatements(pool: pg.Pool): pg.Pool {
  const query = (client: pg.PoolClient) =>
    ((text: unknown, values?: unknown[]) => {
      const name = typeof text === 'string' ? PREPARED_MARK.exec(text)?.[1] : undefined;
      return name === undefined
        ? client.query(text as string, values)
        : client.query({ name, text: text as string, values: values ?? [] });
    }) as pg.PoolClient['query'];
  const connect = async () => {
    const client = await pool.connect();
    return new Proxy(client, { get: (target, key) => (key === 'query' ? query(target) : Reflect.get(target, key)) });
  };
  return new Proxy(pool, { get: (target, key) => (key === 'connect' ? connect : Reflect.get(target, key)) });
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
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
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
