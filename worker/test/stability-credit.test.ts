import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { SpendControls, SpendLedger } from '@mediagen/core';
import { WorkerHarness, imageRequest } from './support/harness';

/**
 * A Stability organization out of credit answers 429, as a rate limit does: against real workers, Redis,
 * PostgreSQL and the simulator, the job ends at once with its token back, every worker holds new image
 * jobs until credit is back, and nothing waits out a rate-limit lockout.
 */
const harness = new WorkerHarness();
let controls: SpendControls;

// Maintenance passes (and with them the balance check) every 300 ms; held jobs look again every 200 ms.
beforeAll(async () => {
  await harness.start({}, { SPEND_RETRY_MS: '200', RECONCILE_INTERVAL_MS: '300' });
  // What the admin API and the queue CLI use: another instance of the same controls.
  controls = new SpendControls(harness.records.db, harness.redis, harness.prefix, new SpendLedger(harness.records.db));
});
afterAll(() => harness.stop());
beforeEach(async () => {
  harness.simulator.clearFaults();
  await controls.credit.clear('stability');
});

const requests = () => harness.simulator.stats().requests;

const ledgerOf = (id: string) => harness.ledgerOf(id);

/** The generation waits in its queue, still queued for its owner, and no image call went out for it. */
async function expectHeld(id: string, imageCallsBefore: number): Promise<void> {
  await vi.waitUntil(async () => ((await harness.queue('image').getJob(id))?.attemptsStarted ?? 0) >= 1, {
    timeout: 10_000,
    interval: 50,
  });
  await new Promise((resolve) => setTimeout(resolve, 800));
  expect(requests().image).toBe(imageCallsBefore);
  expect((await harness.queue('image').getJob(id))!.attemptsMade).toBe(0);
  expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'queued', token: 'held', paidCalls: 0 });
}

it('ends the job at once with its token back once, holds every worker until a balance check finds credit, and locks nothing out', async () => {
  const pools = [await harness.startWorkers({ kinds: ['image'] }), await harness.startWorkers({ kinds: ['image'] })];
  harness.simulator.injectFault({ route: 'image', fault: 'insufficient-balance', times: 1 });
  // The balance checks find none until the test says credit is back: the hold outlasts them.
  harness.simulator.injectFault({ route: 'balance', fault: 'insufficient-balance' });

  const refused = await harness.submit('image', imageRequest(), { attempts: 3 });
  const startedAt = Date.now();
  const { state, job, generation } = await harness.settled('image', refused.job);
  expect(state).toBe('failed');
  expect(job.attemptsMade).toBe(1);
  expect(Date.now() - startedAt).toBeLessThan(5000);
  expect(generation).toMatchObject({ status: 'failed', token: 'refunded', error: { code: 'IMAGE_PROVIDER_ERROR' } });
  // The creator reads a plain message; the operators keep Stability's own words.
  expect(generation.error?.message).toBe('Image generation is unavailable right now. Your token was returned.');
  expect(generation.providerError).toMatch(/does not have enough balance/);
  // Money first: charged once, given back once.
  expect(await ledgerOf(refused.id)).toEqual([
    { movement: 'charge', amount: -1 },
    { movement: 'refund', amount: 1 },
  ]);
  expect((await harness.balance(refused.uid)).image).toBe(1);
  // Not a rate limit: no queue pause, no lockout of the key.
  const { logs } = await harness.queue('image').getJobLogs(refused.id);
  expect(logs.some((line) => line.includes('queue paused'))).toBe(false);
  expect(await harness.redis.pttl(`${harness.prefix}:provider-rate:{stability}:lockout`)).toBeLessThan(0);

  // Marked for operators, on every worker.
  expect((await controls.status()).outOfCredit.stability?.message).toMatch(/does not have enough balance/);
  for (const pool of pools) {
    await expect
      .poll(async () => {
        const paused = await pool.metrics.registry.getSingleMetric('mediagen_provider_paused')!.get();
        return paused.values.find(
          (sample) => sample.labels.provider === 'stability' && sample.labels.reason === 'out_of_credit',
        )?.value;
      })
      .toBe(1);
  }

  // A new image job waits, whichever worker takes it, until a balance check finds credit again.
  const imageCalls = requests().image;
  const held = await harness.submit('image', imageRequest('a second lighthouse'));
  await expectHeld(held.id, imageCalls);
  const balanceChecksWhileHeld = requests().balance;
  expect(balanceChecksWhileHeld).toBeGreaterThanOrEqual(2);
  harness.simulator.clearFaults();
  const { generation: done } = await harness.settled('image', held.job);
  expect(done).toMatchObject({ status: 'completed', token: 'spent', paidCalls: 1 });
  expect(requests().balance).toBeGreaterThan(balanceChecksWhileHeld);
  expect((await controls.status()).outOfCredit).toEqual({});
  expect(requests().image).toBe(imageCalls + 1);
});

it("an operator's clear lets held image jobs go while the balance still reads empty", async () => {
  await harness.startWorkers({ kinds: ['image'] });
  harness.simulator.injectFault({ route: 'balance', fault: 'insufficient-balance' });
  await controls.credit.markOutOfCredit('stability', 'Stability AI error: no balance');

  const imageCalls = requests().image;
  const held = await harness.submit('image', imageRequest());
  await expectHeld(held.id, imageCalls);
  expect(await controls.credit.clear('stability')).toBe(true);
  const { generation } = await harness.settled('image', held.job);
  expect(generation).toMatchObject({ status: 'completed', token: 'spent' });
});

it('a real rate limit still pauses the queue for the lockout and marks nothing out of credit', async () => {
  await harness.startWorkers({ kinds: ['image'] });
  harness.simulator.injectFault({ route: 'image', fault: 'http429', times: 1 });
  const { job, id } = await harness.submit('image', imageRequest());
  const { logs } = await vi.waitUntil(
    async () => {
      const read = await harness.queue('image').getJobLogs(id);
      return read.logs.some((line) => line.includes('queue paused')) ? read : undefined;
    },
    { timeout: 10_000, interval: 50 },
  );
  expect(logs.some((line) => /stability rate limit/.test(line))).toBe(true);
  expect(await harness.redis.pttl(`${harness.prefix}:provider-rate:{stability}:lockout`)).toBeGreaterThan(0);
  expect((await controls.status()).outOfCredit).toEqual({});
  expect((await harness.lifecycle.find(job.id!))?.status).not.toBe('failed');
});
