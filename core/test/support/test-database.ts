import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src';

/** The machine's PostgreSQL, as a role that may create databases (trust auth on this machine and in CI). */
export const POSTGRES_ADMIN_URL = process.env.POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  /** Drops the database, closing whatever connections are left. */
  drop(): Promise<void>;
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Where a test run keeps its template: a database migrated once (scripts/test/template-database.ts), which
 * every test database of the run is copied from instead of being migrated again (a fifth of the time).
 */
export const TEMPLATE_DATABASE_ENV = 'MEDIAGEN_TEST_TEMPLATE_DATABASE';

/**
 * A database of its own for one test file, at the latest schema, dropped afterwards: tests never share
 * records, and LISTEN/NOTIFY channels (per database) never cross between files.
 */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `mediagen_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const url = databaseUrl(name);
  const template = process.env[TEMPLATE_DATABASE_ENV];
  if (template) {
    await asAdmin((client) => client.query(`create database "${name}" template "${template}"`));
  } else {
    await asAdmin((client) => client.query(`create database "${name}"`));
    const database = openDatabase(url, { maxConnections: 1 });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
  }
  return {
    name,
    url,
    drop: () =>
      asAdmin((client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
