import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, GENERATION_KINDS, TOKEN_ALLOWANCE, type GenerationKind } from '@mediagen/shared';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import {
  GENERATION_EVENTS_CHANNEL,
  GenerationLifecycle,
  newGenerationId,
  openDatabase,
  parseGenerationEvent,
  type GenerationEvent,
  type RecordDatabase,
} from '../src';

let testDb: TestDatabase;
let database: RecordDatabase;
let now = Date.parse('2026-11-01T00:00:00Z');
let lifecycle: GenerationLifecycle;

beforeAll(async () => {
  testDb = await createTestDatabase('lifecycle');
  database = openDatabase(testDb.url, { maxConnections: 8 });
  lifecycle = new GenerationLifecycle(database.db, { clock: () => now, maxPaidCalls: 2 });
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

const newUser = () => `user-${randomUUID()}`;

function submit(
  uid: string,
  kind: GenerationKind = 'speech',
  extra: { key?: string; body?: string; maxInFlight?: number } = {},
) {
  return lifecycle.submit({
    id: newGenerationId(kind),
    uid,
    kind,
    request: { prompt: extra.body ?? 'hello' },
    prompt: extra.body ?? 'hello',
    maxInFlight: extra.maxInFlight ?? 100,
    ...(extra.key === undefined ? {} : { idempotency: { key: extra.key, bodyHash: extra.body ?? 'hello' } }),
  });
}

const SPEECH_SUBMISSION = {
  kind: 'speech',
  request: { prompt: 'hello' },
  prompt: 'hello',
  maxInFlight: 100,
} as const;

async function accepted(uid: string, kind: GenerationKind = 'speech') {
  const outcome = await submit(uid, kind);
  if (outcome.status !== 'accepted') throw new Error(`not accepted: ${outcome.status}`);
  return outcome.generation;
}

/** For every kind: what is left + what was spent + what is still held = the allowance (one period). */
async function expectTokensAddUp(uid: string) {
  const balance = await lifecycle.balance(uid);
  const rows = await database.db.selectFrom('generations').select(['kind', 'token']).where('uid', '=', uid).execute();
  for (const kind of GENERATION_KINDS) {
    const used = rows.filter((row) => row.kind === kind && (row.token === 'spent' || row.token === 'held')).length;
    expect(balance.tokens[kind] + used, `${kind} tokens of ${uid}`).toBe(TOKEN_ALLOWANCE[kind]);
  }
}

async function ledgerOf(uid: string) {
  return database.db
    .selectFrom('token_ledger')
    .select(['kind', 'movement', 'amount', 'generation_id'])
    .where('uid', '=', uid)
    .orderBy('id')
    .execute();
}

describe('submit', () => {
  it('charges one token and records the generation queued, with a ledger line', async () => {
    const uid = newUser();
    const generation = await accepted(uid, 'image');
    expect(generation).toMatchObject({ uid, kind: 'image', status: 'queued', version: 1, token: 'held', paidCalls: 0 });
    expect((await lifecycle.balance(uid)).tokens).toEqual({ ...TOKEN_ALLOWANCE, image: 0 });
    expect(await ledgerOf(uid)).toEqual([
      { kind: 'image', movement: 'charge', amount: -1, generation_id: generation.id },
    ]);
    expect((await submit(uid, 'image')).status).toBe('exhausted');
    await expectTokensAddUp(uid);
  });

  it('50 concurrent submissions for the last token: exactly one is accepted', async () => {
    const uid = newUser();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => submit(uid, 'video')));
    expect(outcomes.filter((outcome) => outcome.status === 'accepted')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === 'exhausted')).toHaveLength(49);
    expect(await database.db.selectFrom('generations').select('id').where('uid', '=', uid).execute()).toHaveLength(1);
    await expectTokensAddUp(uid);
  });

  it('refuses past the in-flight cap, concurrently too, and a refusal changes nothing', async () => {
    const uid = newUser();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => submit(uid, 'speech', { maxInFlight: 1 })));
    expect(outcomes.filter((outcome) => outcome.status === 'accepted')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === 'too-many-in-flight')).toHaveLength(9);
    expect((await lifecycle.balance(uid)).tokens.speech).toBe(TOKEN_ALLOWANCE.speech - 1);
  });

  it("many users' submissions at one moment (several of them a user's own) are each charged once", async () => {
    const users = Array.from({ length: 30 }, newUser);
    const outcomes = await Promise.all(
      users.flatMap((uid) => [
        submit(uid, 'image'),
        submit(uid, 'speech'),
        submit(uid, 'speech'),
        submit(uid, 'speech'),
      ]),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(
      [...Array(users.length * 3).fill('accepted'), ...Array(users.length).fill('exhausted')].sort(),
    );
    for (const uid of users) {
      expect((await lifecycle.balance(uid)).tokens).toEqual({ ...TOKEN_ALLOWANCE, image: 0, speech: 0 });
      const charges = (await ledgerOf(uid)).filter((line) => line.movement === 'charge');
      expect(charges.map((line) => line.kind).sort()).toEqual(['image', 'speech', 'speech']);
      await expectTokensAddUp(uid);
    }
  });

  it('a submission that fails among others submitted with it fails alone', async () => {
    const taken = await accepted(newUser(), 'image');
    const users = Array.from({ length: 8 }, newUser);
    const another = newUser();
    // Accounts open first, so all of these meet in the statements that charge.
    for (const uid of [...users, another]) await accepted(uid, 'video');
    const outcomes = await Promise.allSettled([
      ...users.map((uid) => submit(uid, 'image')),
      // The same generation id again: the record refuses it.
      lifecycle.submit({ ...SPEECH_SUBMISSION, id: taken.id, uid: another }),
    ]);
    expect(
      outcomes.slice(0, users.length).map((outcome) => outcome.status === 'fulfilled' && outcome.value.status),
    ).toEqual(users.map(() => 'accepted'));
    expect(outcomes.at(-1)).toMatchObject({ status: 'rejected', reason: { code: '23505' } });
    for (const uid of [...users, another]) await expectTokensAddUp(uid);
  });

  it('refills the balance once 30 days have passed, in the ledger as a period reset', async () => {
    const uid = newUser();
    await accepted(uid, 'speech');
    await accepted(uid, 'speech');
    expect((await submit(uid, 'speech')).status).toBe('exhausted');
    now += 30 * DAY_MS;
    try {
      await accepted(uid, 'speech');
      expect((await lifecycle.balance(uid)).tokens.speech).toBe(TOKEN_ALLOWANCE.speech - 1);
      const resets = (await ledgerOf(uid)).filter((line) => line.movement === 'period_reset');
      expect(resets).toEqual(
        expect.arrayContaining([{ kind: 'speech', movement: 'period_reset', amount: 2, generation_id: null }]),
      );
    } finally {
      now -= 30 * DAY_MS;
    }
  });
});

describe('Idempotency-Key', () => {
  it('the same key and body is one generation and one token; another body is a conflict', async () => {
    const uid = newUser();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => submit(uid, 'speech', { key: 'k-1' })));
    const ids = new Set(outcomes.map((outcome) => ('generation' in outcome ? outcome.generation.id : outcome.status)));
    expect(ids.size).toBe(1);
    expect(outcomes.filter((outcome) => outcome.status === 'accepted')).toHaveLength(1);
    expect((await lifecycle.balance(uid)).tokens.speech).toBe(TOKEN_ALLOWANCE.speech - 1);
    expect((await submit(uid, 'speech', { key: 'k-1', body: 'something else' })).status).toBe('idempotency-conflict');
  });

  it('a key whose generation was deleted names a new generation, with a new random id', async () => {
    const uid = newUser();
    const first = await submit(uid, 'speech', { key: 'k-2' });
    if (first.status !== 'accepted') throw new Error(first.status);
    await database.db.deleteFrom('generations').where('id', '=', first.generation.id).execute();
    const second = await submit(uid, 'speech', { key: 'k-2' });
    expect(second.status).toBe('accepted');
    expect('generation' in second && second.generation.id).not.toBe(first.generation.id);
  });
});

describe('transitions are compare-and-set', () => {
  it('start, complete; a second completion and a late cancel are refused', async () => {
    const uid = newUser();
    const { id } = await accepted(uid, 'image');
    expect(await lifecycle.start(id)).toMatchObject({ ok: true, generation: { status: 'active', version: 2 } });
    // A retry, a poll or a takeover takes it again without a new version.
    expect(await lifecycle.start(id)).toMatchObject({ ok: true, generation: { status: 'active', version: 2 } });
    expect(await lifecycle.providerStarted(id)).toMatchObject({ ok: true, generation: { version: 3, paidCalls: 1 } });
    const artifact = { key: `${id}.png`, mimeType: 'image/png', bytes: 10 };
    expect(await lifecycle.complete(id, artifact)).toMatchObject({
      ok: true,
      generation: { status: 'completed', token: 'spent', version: 4, artifact },
    });
    expect(await lifecycle.complete(id, artifact)).toMatchObject({ ok: false, reason: 'not-allowed' });
    expect(await lifecycle.cancel(id, { by: 'owner', uid })).toMatchObject({
      ok: false,
      reason: 'not-allowed',
      current: { status: 'completed' },
    });
    expect((await lifecycle.start(id)).ok).toBe(false);
    await expectTokensAddUp(uid);
    expect((await lifecycle.balance(uid)).inFlight).toBe(0);
  });

  it("a cancel is the owner's only: another user's reads as not found", async () => {
    const uid = newUser();
    const { id } = await accepted(uid);
    expect(await lifecycle.cancel(id, { by: 'owner', uid: newUser() })).toEqual({
      ok: false,
      reason: 'not-found',
      current: null,
    });
    expect(await lifecycle.cancel('speech_00000000000000000000000000000000', { by: 'owner', uid })).toMatchObject({
      reason: 'not-found',
    });
  });
});

describe('token rules', () => {
  it('canceled before any provider call: refunded; after the provider started: spent', async () => {
    const uid = newUser();
    const early = await accepted(uid);
    expect(await lifecycle.cancel(early.id, { by: 'owner', uid })).toMatchObject({
      ok: true,
      generation: { status: 'canceled', token: 'refunded', error: { code: 'CANCELED' } },
    });
    const late = await accepted(uid);
    await lifecycle.start(late.id);
    await lifecycle.providerStarted(late.id);
    expect(await lifecycle.cancel(late.id, { by: 'owner', uid })).toMatchObject({
      ok: true,
      generation: { status: 'canceled', token: 'spent' },
    });
    expect((await lifecycle.balance(uid)).tokens.speech).toBe(TOKEN_ALLOWANCE.speech - 1);
    expect((await ledgerOf(uid)).map((line) => line.movement)).toEqual(['charge', 'refund', 'charge', 'spend']);
    await expectTokensAddUp(uid);
  });

  it('a call the provider refused before working no longer keeps the token at stake', async () => {
    const uid = newUser();
    const { id } = await accepted(uid);
    await lifecycle.start(id);
    await lifecycle.providerStarted(id);
    await lifecycle.providerCallRefused(id);
    expect(await lifecycle.fail(id, { code: 'SPEECH_FAILED', message: 'HTTP 400' })).toMatchObject({
      ok: true,
      generation: { status: 'failed', token: 'refunded', error: { code: 'SPEECH_FAILED', message: 'HTTP 400' } },
    });
    await expectTokensAddUp(uid);
  });

  it('a failure after paid work keeps the token spent', async () => {
    const uid = newUser();
    const { id } = await accepted(uid, 'image');
    await lifecycle.start(id);
    await lifecycle.providerStarted(id);
    expect(await lifecycle.fail(id, { code: 'IMAGE_NOT_GENERATED', message: 'No image was generated' })).toMatchObject({
      ok: true,
      generation: { token: 'spent' },
    });
    expect((await lifecycle.balance(uid)).tokens.image).toBe(0);
  });

  it('at most maxPaidCalls paid calls per generation', async () => {
    const uid = newUser();
    const { id } = await accepted(uid);
    await lifecycle.start(id);
    expect((await lifecycle.providerStarted(id)).ok).toBe(true);
    expect((await lifecycle.providerStarted(id)).ok).toBe(true);
    expect(await lifecycle.providerStarted(id)).toMatchObject({ ok: false, reason: 'call-limit' });
  });

  it('a start with its paid call is one new version; past the call limit it changes nothing', async () => {
    const uid = newUser();
    const { id } = await accepted(uid);
    const started = await lifecycle.startWithPaidCall(id);
    expect(started).toMatchObject({
      ok: true,
      changed: true,
      generation: { status: 'active', version: 2, paidCalls: 1 },
    });
    expect(started.ok && started.generation.providerStartedAt).toBeInstanceOf(Date);
    // A retry counts its call without a new version, up to the limit.
    expect(await lifecycle.startWithPaidCall(id)).toMatchObject({
      ok: true,
      changed: false,
      generation: { version: 2, paidCalls: 2 },
    });
    expect(await lifecycle.startWithPaidCall(id)).toMatchObject({ ok: false, reason: 'call-limit' });
    expect(await lifecycle.find(id)).toMatchObject({ status: 'active', version: 2, paidCalls: 2 });
    // A canceled one is let go, as by `start`.
    await lifecycle.cancel(id, { by: 'owner', uid });
    expect(await lifecycle.startWithPaidCall(id)).toMatchObject({ ok: false, reason: 'not-allowed' });
  });

  it('a refund after a 30-day reset goes to the new period, capped at the allowance', async () => {
    const uid = newUser();
    const { id } = await accepted(uid, 'image');
    now += 31 * DAY_MS;
    try {
      const other = await accepted(uid, 'video'); // the new period begins: image is back to 1
      expect((await lifecycle.balance(uid)).tokens.image).toBe(1);
      await lifecycle.cancel(id, { by: 'owner', uid });
      expect((await lifecycle.balance(uid)).tokens.image).toBe(1);
      await lifecycle.cancel(other.id, { by: 'owner', uid });
      expect((await lifecycle.balance(uid)).tokens).toEqual(TOKEN_ALLOWANCE);
    } finally {
      now -= 31 * DAY_MS;
    }
  });

  it('200 races of completion against cancel: exactly one wins each, never a refund with a result', async () => {
    const uid = newUser();
    await database.db
      .insertInto('accounts')
      .values({
        uid,
        period_started_at: new Date(now),
        image_tokens: 0,
        video_tokens: 0,
        speech_tokens: 200,
        in_flight: 0,
        created_at: new Date(now),
      })
      .execute();
    const race = async () => {
      const { id } = await accepted(uid);
      await lifecycle.start(id);
      await lifecycle.providerStarted(id);
      const [completed, canceled] = await Promise.all([
        lifecycle.complete(id, { key: `${id}.mp3`, mimeType: 'audio/mpeg', bytes: 1 }),
        lifecycle.cancel(id, { by: 'owner', uid }),
      ]);
      expect(completed.ok !== canceled.ok, id).toBe(true);
      return (await lifecycle.find(id))!;
    };
    const ended = [];
    for (let batch = 0; batch < 20; batch += 1) ended.push(...(await Promise.all(Array.from({ length: 10 }, race))));
    for (const generation of ended) {
      if (generation.status === 'completed') expect(generation.artifact).not.toBeNull();
      else expect(generation).toMatchObject({ status: 'canceled', artifact: null, token: 'spent' });
      expect(generation.token).toBe('spent');
    }
    const balance = await lifecycle.balance(uid);
    expect(balance).toMatchObject({ inFlight: 0, tokens: { speech: 0 } });
  }, 60_000);
});

describe('announcements', () => {
  /** What a server's update stream hears, from now on. */
  async function listen(): Promise<{ events: GenerationEvent[]; stop(): Promise<void> }> {
    const listener = new pg.Client({ connectionString: testDb.url });
    await listener.connect();
    const events: GenerationEvent[] = [];
    listener.on('notification', (message) => {
      const event = parseGenerationEvent(message.payload);
      if (event !== null) events.push(event);
    });
    await listener.query(`listen ${GENERATION_EVENTS_CHANNEL}`);
    return { events, stop: () => listener.end() };
  }

  it('submissions charged together in one statement are each announced once, queued, at commit', async () => {
    const { events, stop } = await listen();
    try {
      const users = [newUser(), newUser(), newUser()];
      const outcomes = await Promise.all(Array.from({ length: 30 }, (_, index) => submit(users[index % 3]!, 'image')));
      const ids = outcomes.flatMap((outcome) => (outcome.status === 'accepted' ? [outcome.generation.id] : []));
      expect(ids).toHaveLength(3); // one image token each
      const theirs = () => events.filter((event) => users.includes(event.uid));
      await expect.poll(() => theirs().length).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        theirs()
          .map((event) => event.id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(theirs().every((event) => event.status === 'queued' && event.version === 1)).toBe(true);
    } finally {
      await stop();
    }
  });

  it('one event per new version, in order, at commit', async () => {
    const { events, stop } = await listen();
    try {
      const uid = newUser();
      const { id } = await accepted(uid);
      await lifecycle.start(id);
      await lifecycle.start(id);
      await lifecycle.providerStarted(id);
      await lifecycle.providerCallRefused(id);
      await lifecycle.providerStarted(id);
      await lifecycle.fail(id, { code: 'SPEECH_FAILED', message: 'x'.repeat(5000) });
      await expect.poll(() => events.filter((event) => event.id === id).length).toBe(4);
      const mine = events.filter((event) => event.id === id);
      expect(mine.map((event) => [event.version, event.status])).toEqual([
        [1, 'queued'],
        [2, 'active'],
        [3, 'active'],
        [4, 'failed'],
      ]);
      // The first paid call is announced with it: a client can say, before a cancel, that the token stays spent.
      expect(mine.map((event) => event.paidCalls)).toEqual([0, 0, 1, 1]);
      expect(mine[3]).toMatchObject({ uid, kind: 'speech', token: 'spent', error: { code: 'SPEECH_FAILED' } });
      expect(mine[3]!.error!.message).toHaveLength(1000);
    } finally {
      await stop();
    }
  });
});
