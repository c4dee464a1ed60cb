import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { SpendControls, SpendLedger } from '@mediagen/core';
import { WorkerHarness, imageRequest, speechRequest } from './support/harness';

/**
 * Budgets and the kill switch against real workers, Redis, PostgreSQL and the simulator: a held-back
 * provider gets no call, its jobs wait (no attempt used, nothing charged twice) and go on when freed.
 */
const harness = new WorkerHarness();
let controls: SpendControls;
let ledger: SpendLedger;

beforeAll(async () => {
  await harness.start({}, { SPEND_RETRY_MS: '200' });
  ledger = new SpendLedger(harness.records.db);
  // What an operator's CLI or the admin API uses: another instance of the same controls.
  controls = new SpendControls(harness.records.db, harness.redis, harness.prefix, ledger);
});
afterAll(() => harness.stop());

const requests = () => harness.simulator.stats().requests;

const ledgerOf = (id: string) => harness.ledgerOf(id);

it('a reached budget holds back exactly its provider; raising it lets the job go on, charged and costed once', async () => {
  const pool = await harness.startWorkers({ kinds: ['image', 'speech'] });
  try {
    await controls.setBudget('stability', 0);
    const before = requests();
    const image = await harness.submit('image', imageRequest());
    const speech = await harness.submit('speech', speechRequest());

    // The other provider goes on.
    const { generation: spoken } = await harness.settled('speech', speech.job);
    expect(spoken.status).toBe('completed');

    // The image waits: its job came back to the queue without using an attempt, no call went out.
    await vi.waitUntil(async () => ((await harness.queue('image').getJob(image.id))?.attemptsStarted ?? 0) >= 1, {
      timeout: 10_000,
      interval: 50,
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(requests().image).toBe(before.image);
    const waiting = (await harness.queue('image').getJob(image.id))!;
    expect(waiting.attemptsMade).toBe(0);
    // Still queued for its owner: nothing started, nothing recorded.
    expect(await harness.lifecycle.find(image.id)).toMatchObject({ status: 'queued', token: 'held', paidCalls: 0 });

    await controls.setBudget('stability', 1000);
    const { generation } = await harness.settled('image', image.job);
    expect(generation).toMatchObject({ status: 'completed', token: 'spent', paidCalls: 1 });
    expect(requests().image).toBe(before.image + 1);
    expect(await ledgerOf(image.id)).toEqual([
      { movement: 'charge', amount: -1 },
      { movement: 'spend', amount: 0 },
    ]);
    expect(await harness.costOf(image.id)).toBeGreaterThan(0);
  } finally {
    await controls.setBudget('stability', null);
    await pool.close(1000);
  }
});

it('the kill switch stops paid calls from every worker at once, and switching it off lets them go', async () => {
  const pool = await harness.startWorkers({ kinds: ['speech'] });
  try {
    await controls.setKillSwitch(true, 'test');
    const before = requests()['realtime.response'];
    const jobs = await Promise.all([1, 2, 3].map((n) => harness.submit('speech', speechRequest(`held ${n}`))));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(requests()['realtime.response']).toBe(before);
    for (const { id } of jobs) {
      expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'queued', token: 'held', paidCalls: 0 });
    }

    await controls.setKillSwitch(false, 'test over');
    for (const { job } of jobs) {
      expect((await harness.settled('speech', job)).generation.status).toBe('completed');
    }
    expect(requests()['realtime.response']).toBe(before + jobs.length);
  } finally {
    await controls.setKillSwitch(false, 'cleanup');
    await pool.close(1000);
  }
});
