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
 * A database of its own for one test file, migrated to the latest schema, dropped afterwards: tests
 * never share records, and LISTEN/NOTIFY channels (per database) never cross between files.
 */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `mediagen_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await asAdmin((client) => client.query(`create database "${name}"`));
  const url = databaseUrl(name);
  const database = openDatabase(url, { maxConnections: 1 });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  return {
    name,
    url,
    drop: () =>
      asAdmin((client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
