import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { openDatabase, type RecordDatabase } from '../src';

/** What a worker or server sees of a database that goes away: failed queries, never a crashed process. */
let testDb: TestDatabase;
let database: RecordDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('connections');
  database = openDatabase(testDb.url, { maxConnections: 2 });
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: testDb.url });
  await admin.connect();
  await admin.query('select pg_terminate_backend($1)', [pid]);
  await admin.end();
}

it('a connection cut while checked out (between two statements of a transaction) fails that transaction only', async () => {
  const cut = database.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
    await terminate(rows[0]!.pid);
    // The break arrives while the connection is still checked out: pg emits it on the client.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sql`select 1`.execute(trx);
  });
  await expect(cut).rejects.toThrow();
  // The pool replaces the connection: the next query works.
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
  expect(rows).toEqual([{ one: 1 }]);
});

it('an idle connection cut by the server is replaced on next use', async () => {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
  await terminate(rows[0]!.pid);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await database.isReady(2000)).toBe(true);
});
