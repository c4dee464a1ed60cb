import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_PLAN_RULES, type GenerationKind } from '@mediagen/shared';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import {
  AccountClosedError,
  AccountClosure,
  GenerationLifecycle,
  emailHash,
  newGenerationId,
  openDatabase,
  type RecordDatabase,
} from '../src';
import { holdRow, queued as queuedBehind } from './support/row-locks';

/**
 * Closing an account wins every race on the record (issue 33). The interleavings that matter are forced
 * with a transaction holding the account row, so each runs in the order it names: the closure first in
 * line, then the statement racing it.
 */
let testDb: TestDatabase;
let database: RecordDatabase;
let now = Date.parse('2026-11-01T00:00:00Z');
let lifecycle: GenerationLifecycle;
let closure: AccountClosure;

beforeAll(async () => {
  testDb = await createTestDatabase('closing');
  database = openDatabase(testDb.url, { maxConnections: 10 });
  lifecycle = new GenerationLifecycle(database.db, { clock: () => now });
  closure = new AccountClosure(database.db, { clock: () => now });
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

const HASH_KEY = 'test-key-of-at-least-thirty-two-characters';
const newUser = () => {
  const uid = `user-${randomUUID()}`;
  return { uid, hash: emailHash(HASH_KEY, `${uid}@example.test`) };
};

function submit(user: { uid: string; hash: string }, kind: GenerationKind = 'speech') {
  return lifecycle.submit({
    id: newGenerationId(kind),
    uid: user.uid,
    kind,
    request: { prompt: 'hello' },
    prompt: 'hello',
    maxInFlight: 100,
    emailHash: user.hash,
  });
}

async function accepted(user: { uid: string; hash: string }, kind: GenerationKind = 'speech') {
  const outcome = await submit(user, kind);
  if (outcome.status !== 'accepted') throw new Error(`not accepted: ${outcome.status}`);
  return outcome.generation;
}

/** A generation whose paid provider call went out: spent whatever happens, so closing leaves a trace. */
async function paidAndRunning(user: { uid: string; hash: string }, kind: GenerationKind = 'speech') {
  const { id } = await accepted(user, kind);
  expect((await lifecycle.startWithPaidCall(id)).ok).toBe(true);
  return id;
}

async function rowsOf(uid: string) {
  const count = async (table: 'accounts' | 'generations' | 'token_ledger' | 'user_spend_daily') =>
    (await database.db.selectFrom(table).select('uid').where('uid', '=', uid).execute()).length;
  return {
    accounts: await count('accounts'),
    generations: await count('generations'),
    ledger: await count('token_ledger'),
    spend: await count('user_spend_daily'),
  };
}
const NOTHING = { accounts: 0, generations: 0, ledger: 0, spend: 0 };

const traceOf = (hash: string) =>
  database.db.selectFrom('account_traces').selectAll().where('email_hash', '=', hash).executeTakeFirst();

const holdAccountRow = (uid: string) => holdRow(testDb.url, 'accounts', 'uid', uid);
const queued = <T>(work: () => Promise<T>) => queuedBehind(testDb.url, work);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a submission racing the closure', () => {
  it('that waited for the closing transaction finds the account gone: refused, nothing made, the trace kept', async () => {
    const user = newUser();
    await paidAndRunning(user, 'speech');
    const row = await holdAccountRow(user.uid);
    const closing = await queued(() => closure.close(user.uid, user.hash));
    const submitting = await queued(() => submit(user, 'image'));
    await row.release();

    expect((await closing.outcome).trace).toEqual({ image: 0, video: 0, speech: 1 });
    expect(await submitting.outcome).toEqual({ status: 'closed' });
    expect(await rowsOf(user.uid)).toEqual(NOTHING);
    expect(await traceOf(user.hash)).toMatchObject({ speech_spent: 1 });
    // And after the closure, whenever it comes: no account row again, the trace untouched.
    expect(await submit(user, 'video')).toEqual({ status: 'closed' });
    expect(await rowsOf(user.uid)).toEqual(NOTHING);
    expect(await traceOf(user.hash)).toMatchObject({ speech_spent: 1 });
  });

  it('a first submission and the closure, 40 times: the account never outlives its closure', async () => {
    // How long a first submission takes here, so each closure starts somewhere in it: before the account
    // is made, while, or after the generation is.
    const startedAt = performance.now();
    await accepted(newUser());
    const firstSubmissionMs = performance.now() - startedAt;

    // The window is learnt round by round (longer when every submission won, shorter when none did), so
    // the closures keep landing around the submissions however loaded the machine is.
    const outcomes = [];
    let stretch = 1;
    for (let round = 0; round < 5; round += 1) {
      const raced = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const user = newUser();
          const [submitted, closed] = await Promise.all([
            submit(user),
            sleep(Math.random() * 2 * stretch * firstSubmissionMs).then(() => closure.close(user.uid, user.hash)),
          ]);
          return { user, closed, submitted };
        }),
      );
      const acceptedShare = raced.filter(({ submitted }) => submitted.status === 'accepted').length / raced.length;
      if (acceptedShare > 0.6) stretch /= 1.5;
      if (acceptedShare < 0.4) stretch *= 1.5;
      outcomes.push(...raced);
    }
    for (const { user, closed, submitted } of outcomes) {
      expect(await rowsOf(user.uid)).toEqual(NOTHING);
      if (submitted.status === 'accepted') {
        // Accepted before the closure: the closure took it along.
        expect(closed.generations.map((generation) => generation.id)).toEqual([submitted.generation.id]);
      } else {
        expect(submitted).toEqual({ status: 'closed' });
      }
    }
    expect(new Set(outcomes.map(({ submitted }) => submitted.status))).toEqual(new Set(['accepted', 'closed']));
  });

  it('signing up again with the same email is bound by the trace, and closing again changes nothing', async () => {
    const first = newUser();
    await paidAndRunning(first, 'video');
    await closure.close(first.uid, first.hash);
    expect(await closure.close(first.uid, first.hash)).toEqual({ generations: [], trace: null });
    expect(await closure.isClosed(first.uid)).toBe(true);

    const again = { uid: `user-${randomUUID()}`, hash: first.hash };
    expect(await submit(again, 'video')).toMatchObject({ status: 'exhausted' });
    expect((await lifecycle.balance(again.uid)).tokens.video).toBe(0);
  });

  it('an operator cannot give a closed account a plan: it would make its row again', async () => {
    const user = newUser();
    await accepted(user);
    await closure.close(user.uid, user.hash);
    await expect(lifecycle.setPlan(user.uid, 'pro', 'test')).rejects.toBeInstanceOf(AccountClosedError);
    expect(await rowsOf(user.uid)).toEqual(NOTHING);
  });
});

describe('endings racing the closure', () => {
  it('a cancel and a completion that waited for the closure change nothing, and nobody deadlocks', async () => {
    const user = newUser();
    const queuedOne = await accepted(user, 'speech');
    const running = await paidAndRunning(user, 'image');
    const row = await holdAccountRow(user.uid);
    const closing = await queued(() => closure.close(user.uid, user.hash));
    const canceling = await queued(() => lifecycle.cancel(queuedOne.id, { by: 'owner', uid: user.uid }));
    const completing = await queued(() =>
      lifecycle.complete(running, { key: `${running}.png`, mimeType: 'image/png', bytes: 1 }),
    );
    await row.release();

    const closed = await closing.outcome;
    expect(closed.generations.map((generation) => generation.id).sort()).toEqual([queuedOne.id, running].sort());
    // Gone by the time they ran: the cancel finds nothing to give back, the completion nothing to keep (its
    // worker deletes the file it wrote).
    expect(await canceling.outcome).toEqual({ ok: false, reason: 'not-found', current: null });
    expect(await completing.outcome).toEqual({ ok: false, reason: 'not-found', current: null });
    expect(await rowsOf(user.uid)).toEqual(NOTHING);
    expect(await traceOf(user.hash)).toMatchObject({ image_spent: 1, speech_spent: 0 });
  });

  it("an operator's retry that waited for the closure changes nothing", async () => {
    const user = newUser();
    const { id } = await accepted(user, 'image');
    await lifecycle.fail(id, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
    const row = await holdAccountRow(user.uid);
    const closing = await queued(() => closure.close(user.uid, user.hash));
    const retrying = await queued(() => lifecycle.retry(id, { charge: true, maxInFlight: 10 }));
    await row.release();
    await closing.outcome;
    expect(await retrying.outcome).toEqual({ ok: false, reason: 'not-found', current: null });
    expect(await rowsOf(user.uid)).toEqual(NOTHING);
  });
});

describe("an operator's retry is charged as a submission", () => {
  /** A failed generation whose paid call went out: its token is spent. */
  async function failedAfterPaidCall(user: { uid: string; hash: string }, kind: GenerationKind) {
    const id = await paidAndRunning(user, kind);
    await lifecycle.fail(id, { code: 'SPEECH_FAILED', message: 'Failed to generate speech' });
    return id;
  }

  it('in the period it is made in: an allowance refilled since is charged, not refused', async () => {
    const user = newUser();
    const id = await failedAfterPaidCall(user, 'image');
    expect((await lifecycle.balance(user.uid)).tokens.image).toBe(0);
    now += 31 * DAY_MS;

    const retried = await lifecycle.retry(id, { charge: true, maxInFlight: 10 });
    expect(retried).toMatchObject({ ok: true, generation: { status: 'queued', token: 'held' }, plan: 'free' });
    const balance = await lifecycle.balance(user.uid);
    expect(balance.tokens.image).toBe(DEFAULT_PLAN_RULES.free.allowance.image - 1);
    expect(balance.periodStartedAt.getTime()).toBe(now);
  });

  it('a token left from a period that is over is not what it pays with: the retry is not free', async () => {
    const user = newUser();
    const id = await failedAfterPaidCall(user, 'speech');
    expect((await lifecycle.balance(user.uid)).tokens.speech).toBe(1);
    now += 31 * DAY_MS;

    expect(await lifecycle.retry(id, { charge: true, maxInFlight: 10 })).toMatchObject({ ok: true });
    // The new period's two tokens, less the retry's.
    expect((await lifecycle.balance(user.uid)).tokens.speech).toBe(1);
    expect(await submit(user, 'speech')).toMatchObject({ status: 'accepted' });
    expect(await submit(user, 'speech')).toMatchObject({ status: 'exhausted' });
    const ledger = await database.db
      .selectFrom('token_ledger')
      .select(['movement', 'amount', 'reason'])
      .where('uid', '=', user.uid)
      .where('kind', '=', 'speech')
      .orderBy('id')
      .execute();
    expect(ledger.slice(-3)).toEqual([
      { movement: 'charge', amount: -1, reason: 'retried by an operator' },
      { movement: 'period_reset', amount: 1, reason: 'a new 30-day period began' },
      { movement: 'charge', amount: -1, reason: 'submitted' },
    ]);
  });

  it('keeps to the in-flight cap, free or not, and changes nothing when refused', async () => {
    const user = newUser();
    const id = await failedAfterPaidCall(user, 'speech');
    await accepted(user, 'video');
    for (const charge of [true, false]) {
      expect(await lifecycle.retry(id, { charge, maxInFlight: 1 })).toMatchObject({
        ok: false,
        reason: 'refused',
        refusal: { status: 'too-many-in-flight', inFlight: 1 },
      });
    }
    expect(await lifecycle.find(id)).toMatchObject({ status: 'failed' });
    expect(await lifecycle.balance(user.uid)).toMatchObject({ inFlight: 1, tokens: { speech: 1, video: 0 } });
  });

  it("keeps to the owner's plan as it is now", async () => {
    const user = newUser();
    await lifecycle.setPlan(user.uid, 'pro', 'test');
    const outcome = await lifecycle.submit({
      id: newGenerationId('image'),
      uid: user.uid,
      kind: 'image',
      request: { prompt: 'a wide lighthouse', width: 1536, height: 1536, seed: 1 },
      prompt: 'a wide lighthouse',
      maxInFlight: 10,
    });
    if (outcome.status !== 'accepted') throw new Error(outcome.status);
    const { id } = outcome.generation;
    await lifecycle.fail(id, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
    await lifecycle.setPlan(user.uid, 'free', 'test');

    for (const charge of [true, false]) {
      expect(await lifecycle.retry(id, { charge, maxInFlight: 10 })).toMatchObject({
        ok: false,
        reason: 'beyond-plan',
        message: 'The Free plan makes images up to 1024×1024 pixels. Upgrade your plan for more.',
      });
    }
    expect(await lifecycle.find(id)).toMatchObject({ status: 'failed' });
  });

  it('a cancel that waited for the retry cancels what it queued again, and gives its token back', async () => {
    const user = newUser();
    const { id } = await accepted(user, 'image');
    await lifecycle.fail(id, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
    const row = await holdAccountRow(user.uid);
    const retrying = await queued(() => lifecycle.retry(id, { charge: true, maxInFlight: 10 }));
    const canceling = await queued(() => lifecycle.cancel(id, { by: 'owner', uid: user.uid }));
    await row.release();

    expect(await retrying.outcome).toMatchObject({ ok: true, generation: { status: 'queued', token: 'held' } });
    expect(await canceling.outcome).toMatchObject({ ok: true, generation: { status: 'canceled', token: 'refunded' } });
    expect(await lifecycle.balance(user.uid)).toMatchObject({ inFlight: 0, tokens: { image: 1 } });
  });

  it('without a token, refused and told when the period ends', async () => {
    const user = newUser();
    const id = await failedAfterPaidCall(user, 'image');
    const { resetsAt } = await lifecycle.balance(user.uid);
    expect(await lifecycle.retry(id, { charge: true, maxInFlight: 10 })).toMatchObject({
      ok: false,
      reason: 'refused',
      refusal: { status: 'exhausted', resetsAt },
    });
    // On the house, it runs: an in-flight slot, no token.
    expect(await lifecycle.retry(id, { charge: false, maxInFlight: 10 })).toMatchObject({
      ok: true,
      generation: { token: 'waived' },
    });
    expect(await lifecycle.balance(user.uid)).toMatchObject({ inFlight: 1, tokens: { image: 0 } });
  });
});
