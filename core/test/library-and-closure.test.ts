import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, type GenerationKind } from '@mediagen/shared';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import {
  AccountClosure,
  GENERATION_EVENTS_CHANNEL,
  GenerationLifecycle,
  emailHash,
  newGenerationId,
  openDatabase,
  parseGenerationEvent,
  type GenerationEvent,
  type RecordDatabase,
} from '../src';

/** Issue 15 on the record: deleting a generation, retention of artifacts, closing an account. */
let testDb: TestDatabase;
let database: RecordDatabase;
let now = Date.parse('2026-11-01T00:00:00Z');
let lifecycle: GenerationLifecycle;
let closure: AccountClosure;
let listener: pg.Client;
const events: GenerationEvent[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase('library');
  database = openDatabase(testDb.url, { maxConnections: 4 });
  lifecycle = new GenerationLifecycle(database.db, { clock: () => now });
  closure = new AccountClosure(database.db, { clock: () => now });
  listener = new pg.Client({ connectionString: testDb.url });
  await listener.connect();
  listener.on('notification', (message) => {
    const event = parseGenerationEvent(message.payload);
    if (event !== null) events.push(event);
  });
  await listener.query(`listen ${GENERATION_EVENTS_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await database.close();
  await testDb.drop();
});

const newUser = () => `user-${randomUUID()}`;
const HASH_KEY = 'test-key-of-at-least-thirty-two-characters';

async function accepted(uid: string, kind: GenerationKind = 'speech', options: { key?: string; email?: string } = {}) {
  const outcome = await lifecycle.submit({
    id: newGenerationId(kind),
    uid,
    kind,
    request: { prompt: 'hello' },
    prompt: 'hello',
    maxInFlight: 100,
    ...(options.key === undefined ? {} : { idempotency: { key: options.key, bodyHash: 'h' } }),
    ...(options.email === undefined ? {} : { emailHash: emailHash(HASH_KEY, options.email) }),
  });
  if (outcome.status !== 'accepted') throw new Error(`not accepted: ${outcome.status}`);
  return outcome.generation;
}

async function completed(uid: string, kind: GenerationKind = 'speech') {
  const { id } = await accepted(uid, kind);
  await lifecycle.start(id);
  await lifecycle.providerStarted(id);
  const done = await lifecycle.complete(id, { key: `${id}.wav`, mimeType: 'audio/wav', bytes: 4 });
  if (!done.ok) throw new Error('not completed');
  return done.generation;
}

async function rowsOf(uid: string) {
  const count = async (table: 'accounts' | 'generations' | 'token_ledger' | 'idempotency_keys') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('uid', '=', uid)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    accounts: await count('accounts'),
    generations: await count('generations'),
    ledger: await count('token_ledger'),
    keys: await count('idempotency_keys'),
  };
}

describe('remove', () => {
  it('deletes a finished generation, announces it removed, and keeps the ledger of its token', async () => {
    const uid = newUser();
    const generation = await completed(uid);
    const removed = await lifecycle.remove(generation.id, uid);
    expect(removed).toMatchObject({
      ok: true,
      removed: { id: generation.id, artifact: { key: `${generation.id}.wav` } },
    });
    expect(await lifecycle.find(generation.id)).toBeNull();
    await expect.poll(() => events.some((event) => event.id === generation.id && event.removed)).toBe(true);
    // The token stays spent: deleting a result is not a refund.
    expect((await lifecycle.balance(uid)).tokens.speech).toBe(1);
    expect((await rowsOf(uid)).ledger).toBeGreaterThan(0);
  });

  it('cancels a running generation first, by the cancel rules, then deletes it', async () => {
    const uid = newUser();
    const { id } = await accepted(uid);
    await lifecycle.start(id);
    expect(await lifecycle.remove(id, uid)).toMatchObject({
      ok: true,
      removed: { status: 'canceled', token: 'refunded' },
    });
    expect(await lifecycle.balance(uid)).toMatchObject({ tokens: { speech: 2 }, inFlight: 0 });
  });

  it("refuses someone else's generation and changes nothing", async () => {
    const owner = newUser();
    const generation = await completed(owner);
    expect(await lifecycle.remove(generation.id, newUser())).toEqual({ ok: false });
    expect(await lifecycle.find(generation.id)).not.toBeNull();
  });

  it('frees its Idempotency-Key: the same key names a new generation afterwards', async () => {
    const uid = newUser();
    const first = await accepted(uid, 'image', { key: 'k-1' });
    await lifecycle.start(first.id);
    await lifecycle.fail(first.id, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
    await lifecycle.remove(first.id, uid);
    const again = await accepted(uid, 'image', { key: 'k-1' });
    expect(again.id).not.toBe(first.id);
  });
});

describe('expireArtifacts', () => {
  it("lets go of artifacts past their plan's cutoff, oldest first, keeping the records and saying so", async () => {
    const free = newUser();
    const pro = newUser();
    const old = await completed(free);
    const oldPro = await completed(pro);
    await database.db.updateTable('accounts').set({ plan: 'pro' }).where('uid', '=', pro).execute();
    now += 10 * DAY_MS;
    const recent = await completed(free, 'image');

    const cutoff = new Date(now - 5 * DAY_MS);
    const expired = await lifecycle.expireArtifacts({ free: cutoff }, 100);
    expect(expired).toContainEqual({ id: old.id, artifactKeys: [`${old.id}.wav`], traceParent: null });
    expect(expired.map((item) => item.id)).not.toContain(oldPro.id);
    expect(expired.map((item) => item.id)).not.toContain(recent.id);

    const record = await lifecycle.find(old.id);
    expect(record).toMatchObject({ status: 'completed', artifact: null, version: old.version + 1 });
    expect(record?.artifactExpiredAt?.getTime()).toBe(now);
    await expect
      .poll(() => events.find((event) => event.id === old.id && event.version === old.version + 1))
      .toMatchObject({ artifact: null, artifactExpiredAt: new Date(now).toISOString() });
    // Nothing twice, and a plan without a retention setting keeps its files.
    expect(await lifecycle.expireArtifacts({ free: cutoff }, 100)).not.toContainEqual(
      expect.objectContaining({ id: old.id }),
    );
    expect((await lifecycle.find(oldPro.id))?.artifact).not.toBeNull();
  });
});

describe('AccountClosure', () => {
  it('leaves no row of the user but an anonymous trace of what the period spent', async () => {
    const uid = newUser();
    const email = `${uid}@example.test`;
    const done = await completed(uid, 'image');
    const paidRunning = await accepted(uid, 'video', { key: 'k-video' });
    await lifecycle.start(paidRunning.id);
    await lifecycle.providerStarted(paidRunning.id);
    const unpaidQueued = await accepted(uid, 'speech');

    const closed = await closure.close(uid, emailHash(HASH_KEY, email));
    expect(closed.generations.map((generation) => generation.id).sort()).toEqual(
      [done.id, paidRunning.id, unpaidQueued.id].sort(),
    );
    expect(closed.generations.find((generation) => generation.id === done.id)?.artifactKeys).toEqual([
      `${done.id}.wav`,
    ]);
    // The image and the video the provider had started are spent; the queued speech would be given back.
    expect(closed.trace).toEqual({ image: 1, video: 1, speech: 0 });
    expect(await rowsOf(uid)).toEqual({ accounts: 0, generations: 0, ledger: 0, keys: 0 });
    const traces = await database.db.selectFrom('account_traces').selectAll().execute();
    const trace = traces.find((row) => row.email_hash === emailHash(HASH_KEY, email));
    expect(trace).toMatchObject({ image_spent: 1, video_spent: 1, speech_spent: 0 });
    // Anonymous: neither the uid nor the email appears in it.
    expect(JSON.stringify(trace)).not.toContain(uid);
  });

  it('signing up again with the same email in the same period brings no new free tokens; the next period does', async () => {
    const first = newUser();
    const email = `Someone-${randomUUID()}@Example.test`;
    await completed(first, 'image');
    await completed(first, 'speech');
    await closure.close(first, emailHash(HASH_KEY, email));

    const second = newUser();
    const hash = emailHash(HASH_KEY, `  ${email.toLowerCase()} `);
    expect((await lifecycle.balance(second, hash)).tokens).toEqual({ image: 0, video: 1, speech: 1 });
    const refused = await lifecycle.submit({
      id: newGenerationId('image'),
      uid: second,
      kind: 'image',
      request: {},
      prompt: 'again',
      maxInFlight: 100,
      emailHash: hash,
    });
    expect(refused.status).toBe('exhausted');
    expect((await lifecycle.balance(second)).tokens).toEqual({ image: 0, video: 1, speech: 1 });

    now += 31 * DAY_MS;
    const third = newUser();
    await closure.close(second, hash);
    // The period the trace belongs to is over: a new account starts afresh.
    expect((await lifecycle.balance(third, hash)).tokens).toEqual({ image: 1, video: 1, speech: 2 });
  });

  it("counts a free retry still in flight by the endings' token rule: a waived token never comes back", async () => {
    const uid = newUser();
    await completed(uid, 'speech');
    const { id } = await accepted(uid, 'speech');
    await lifecycle.fail(id, { code: 'SPEECH_FAILED', message: 'Failed to generate speech' });
    expect(await lifecycle.retry(id, { charge: false, maxInFlight: 100 })).toMatchObject({ ok: true });

    const closed = await closure.close(uid, emailHash(HASH_KEY, `${uid}@example.test`));
    // The completed speech is spent; the waived one, ended now, would give nothing back.
    expect(closed.trace).toEqual({ image: 0, video: 0, speech: 1 });
  });

  it('leaves no trace for an account that spent nothing, or whose period is over', async () => {
    const uid = newUser();
    const email = `${uid}@example.test`;
    await accepted(uid, 'speech');
    const closed = await closure.close(uid, emailHash(HASH_KEY, email));
    expect(closed.trace).toBeNull();
    const found = await database.db
      .selectFrom('account_traces')
      .select('email_hash')
      .where('email_hash', '=', emailHash(HASH_KEY, email))
      .execute();
    expect(found).toEqual([]);
  });
});
