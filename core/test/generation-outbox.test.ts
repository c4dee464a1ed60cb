import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mediagen/testing';
import { GENERATION_EVENTS_CHANNEL, GenerationOutbox, openDatabase, type RecordDatabase } from '../src';

let testDb: TestDatabase;
let database: RecordDatabase;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase('outbox');
  database = openDatabase(testDb.url, { maxConnections: 6 });
  listener = new pg.Client({ connectionString: testDb.url });
  await listener.connect();
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query(`listen ${GENERATION_EVENTS_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await database.close();
  await testDb.drop();
});

const outboxRows = async () =>
  (await sql<{ rows: number }>`select count(*)::int as rows from generation_outbox`.execute(database.db)).rows[0]!.rows;

it('announcements a server of the release before left behind go out once each, in order, however many processes flush at once', async () => {
  const payloads = Array.from({ length: 1200 }, (_, index) => JSON.stringify({ n: index }));
  await database.db
    .insertInto('generation_outbox')
    .values(payloads.map((payload) => ({ payload })))
    .execute();
  const flushers = [new GenerationOutbox(database.db), new GenerationOutbox(database.db)];
  await Promise.all(flushers.flatMap((outbox) => [outbox.flush(), outbox.flush(), outbox.flush()]));
  expect(await outboxRows()).toBe(0);
  await expect.poll(() => heard.length).toBe(payloads.length);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(heard.length).toBe(payloads.length);
  expect(new Set(heard).size).toBe(payloads.length);
  // A flush sends its batch (up to 500 rows) in id order, and concurrent flushes take disjoint batches:
  // what is heard is at most three runs of consecutive rows.
  const numbers = heard.map((payload) => (JSON.parse(payload) as { n: number }).n);
  const breaks = numbers.filter((n, index) => index > 0 && n !== numbers[index - 1]! + 1).length;
  expect(breaks).toBeLessThanOrEqual(2);
});
