import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { WorkerHarness, imageRequest } from './support/harness';

/**
 * A paid call the provider refused before any work (an HTTP 500) costs its owner nothing, even when the
 * record cannot take the give-back at once: against real workers, Redis, PostgreSQL and the simulator, a
 * trigger makes the database refuse every give-back for a while. Meanwhile the token is not spent and the
 * job keeps the give-back; once the database takes it, the token comes back, once.
 */
const harness = new WorkerHarness();

beforeAll(() => harness.start());
afterAll(() => harness.stop());

/** The database refuses every update that lowers a generation's count of paid calls (a give-back). */
async function refuseGiveBacks(): Promise<void> {
  await sql`create or replace function refuse_give_back() returns trigger language plpgsql as $$
    begin
      if new.paid_calls < old.paid_calls then raise exception 'give-back refused by the test'; end if;
      return new;
    end $$`.execute(harness.records.db);
  await sql`create trigger refuse_give_back before update on generations
    for each row execute function refuse_give_back()`.execute(harness.records.db);
}

async function allowGiveBacks(): Promise<void> {
  await sql`drop trigger if exists refuse_give_back on generations`.execute(harness.records.db);
}

async function ledgerOf(id: string) {
  return harness.records.db
    .selectFrom('token_ledger')
    .select(['movement', 'amount'])
    .where('generation_id', '=', id)
    .orderBy('id')
    .execute();
}

const CHARGED_THEN_REFUNDED = [
  { movement: 'charge', amount: -1 },
  { movement: 'refund', amount: 1 },
];

it('keeps the give-back of a refused call with the failed job while the record refuses it; the reconciler refunds the token once', async () => {
  const pool = await harness.startWorkers({
    kinds: ['image'],
    reconciler: { ...harness.config.reconciler, staleAfterMs: 0 },
  });
  harness.simulator.injectFault({ route: 'image', fault: 'http500', times: 1 });
  await refuseGiveBacks();
  let generation: { id: string; uid: string; charged: number };
  try {
    const { id, uid } = await harness.submit('image', imageRequest(), { attempts: 1 });
    generation = { id, uid, charged: (await harness.balance(uid)).image };
    const job = await vi.waitUntil(
      async () => {
        const found = await harness.queue('image').getJob(id);
        return (await found?.getState()) === 'failed' ? found : undefined;
      },
      { timeout: 20_000, interval: 50 },
    );
    // The run ended, but its outcome waits with the give-back: the token is still at stake, not spent.
    expect(job!.data.refusedCallsToGiveBack).toBe(1);
    expect(job!.data.outcome).toMatchObject({ failed: { code: expect.any(String) } });
    expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'active', token: 'held', paidCalls: 1 });
    // The reconciler does not tell the record the outcome before the give-back is taken.
    const refused = await pool.reconcile();
    expect(refused?.givingBack).toContain(id);
    expect(refused?.concluded).not.toContain(id);
    expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'active', token: 'held', paidCalls: 1 });
  } finally {
    await allowGiveBacks();
  }

  const { id, uid, charged } = generation;
  expect((await pool.reconcile())?.concluded).toContain(id);
  expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'failed', token: 'refunded', paidCalls: 0 });
  expect(await ledgerOf(id)).toEqual(CHARGED_THEN_REFUNDED);
  expect((await harness.balance(uid)).image).toBe(charged + 1);
  expect((await harness.queue('image').getJob(id))!.data.refusedCallsToGiveBack).toBeUndefined();
  // Another pass finds nothing left to give back or to tell.
  await pool.reconcile();
  expect(await ledgerOf(id)).toEqual(CHARGED_THEN_REFUNDED);
  await pool.close(1000);
});

it('gives a refused call back at the next attempt, before anything else, once the record takes it again', async () => {
  const pool = await harness.startWorkers({ kinds: ['image'] });
  harness.simulator.injectFault({ route: 'image', fault: 'http500', times: 2 });
  const callsBefore = harness.simulator.stats().requests.image;
  await refuseGiveBacks();
  let submitted: Awaited<ReturnType<typeof harness.submit>>;
  let charged: number;
  try {
    submitted = await harness.submit('image', imageRequest(), { attempts: 2, backoffMs: 1000 });
    charged = (await harness.balance(submitted.uid)).image;
    const { id } = submitted;
    await vi.waitUntil(async () => (await harness.queue('image').getJob(id))?.data.refusedCallsToGiveBack === 1, {
      timeout: 20_000,
      interval: 25,
    });
    expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'active', token: 'held', paidCalls: 1 });
  } finally {
    await allowGiveBacks();
  }

  // Both attempts were refused before any work: the owner pays for neither.
  const { state, job, generation } = await harness.settled('image', submitted.job);
  expect(state).toBe('failed');
  expect(job.attemptsMade).toBe(2);
  expect(harness.simulator.stats().requests.image - callsBefore).toBe(2);
  expect(generation).toMatchObject({ status: 'failed', token: 'refunded', paidCalls: 0 });
  expect(job.data.refusedCallsToGiveBack).toBeUndefined();
  expect(await ledgerOf(submitted.id)).toEqual(CHARGED_THEN_REFUNDED);
  expect((await harness.balance(submitted.uid)).image).toBe(charged + 1);
  await pool.close(1000);
});
