import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { SpendLedger, signalCancel } from '@mediagen/core';
import { WorkerHarness, imageRequest } from './support/harness';

/**
 * Every paid call that may have cost money is in the spend reports, however its generation ends:
 * budgets, the kill switch and the per-user cap count what the provider served, not only what completed.
 */
const harness = new WorkerHarness();
let ledger: SpendLedger;

beforeAll(async () => {
  await harness.start();
  ledger = new SpendLedger(harness.records.db);
  await harness.startWorkers({
    kinds: ['image'],
    // A call the provider never answers ends at this timeout (and may still have been paid for).
    stability: { ...harness.config.stability, timeoutMs: 1500 },
  });
});
afterAll(() => harness.stop());

const served = () => harness.simulator.stats().requests.image;
const recordedCalls = async () =>
  (await ledger.totals('provider', 1)).find((entry) => entry.key === 'stability')?.calls ?? 0;

/** A generation whose call hangs at the provider, stopped by `stop` once the provider has it. */
async function stoppedMidCall(stop: (id: string, uid: string) => Promise<unknown>) {
  harness.simulator.injectFault({ route: 'image', fault: 'hang', times: 1 });
  const sentBefore = served();
  const { job, id, uid } = await harness.submit('image', imageRequest(), { attempts: 1 });
  await vi.waitUntil(() => served() > sentBefore, { timeout: 5000, interval: 20 });
  await stop(id, uid);
  await signalCancel(harness.redis, harness.prefix, id);
  await job.waitUntilFinished(harness.queueEvents('image'), 5000).catch(() => undefined);
}

it('records a cost for every call the provider served: completed, refused for content, canceled or deleted mid-call, timed out', async () => {
  const [servedBefore, recordedBefore] = [served(), await recordedCalls()];

  const completed = await harness.submit('image', imageRequest());
  expect((await harness.settled('image', completed.job)).state).toBe('completed');

  harness.simulator.injectFault({ route: 'image', fault: 'content-filtered', times: 1 });
  const filtered = await harness.submit('image', imageRequest(), { attempts: 1 });
  expect((await harness.settled('image', filtered.job)).generation.error?.code).toBe('IMAGE_NOT_GENERATED');

  for (let canceled = 0; canceled < 3; canceled += 1) {
    await stoppedMidCall((id, uid) => harness.lifecycle.cancel(id, { by: 'owner', uid }));
  }
  await stoppedMidCall((id, uid) => harness.lifecycle.remove(id, uid));

  harness.simulator.injectFault({ route: 'image', fault: 'hang', times: 1 });
  const timedOut = await harness.submit('image', imageRequest(), { attempts: 1 });
  expect((await harness.settled('image', timedOut.job)).state).toBe('failed');

  // Seven calls at least (a slow answer may time out and be retried): each is in the reports once,
  // whatever ended it.
  const servedCalls = served() - servedBefore;
  expect(servedCalls).toBeGreaterThanOrEqual(7);
  await expect.poll(async () => (await recordedCalls()) - recordedBefore, { timeout: 5000 }).toBe(servedCalls);
});

it('records nothing for a call refused before any work (a 5xx): the provider charged nothing', async () => {
  harness.simulator.injectFault({ route: 'image', fault: 'http500', times: 1 });
  const [servedBefore, recordedBefore] = [served(), await recordedCalls()];
  const { job } = await harness.submit('image', imageRequest(), { attempts: 2, backoffMs: 10 });
  expect((await harness.settled('image', job)).state).toBe('completed');
  expect(served() - servedBefore).toBe(2);
  await expect.poll(async () => (await recordedCalls()) - recordedBefore, { timeout: 5000 }).toBe(1);
});
