import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { GenerationWorkers } from '../src';
import { WorkerHarness, imageRequest } from './support/harness';

const COOLDOWN_MS = 1500;
const harness = new WorkerHarness();
let pool: GenerationWorkers;

beforeAll(async () => {
  await harness.start();
  pool = await harness.startWorkers({
    kinds: ['image'],
    breaker: { failureThresholdPercent: 50, volumeThreshold: 3, windowMs: 10_000, cooldownMs: COOLDOWN_MS },
  });
});
afterAll(() => harness.stop());

async function breakerState(provider: string): Promise<number | undefined> {
  const metric = await pool.metrics.registry.getSingleMetric('mediagen_worker_circuit_breaker_state')!.get();
  return metric.values.find((value) => value.labels.provider === provider)?.value;
}

it('opens after repeated provider failures, stops calling the provider, and closes after its cool-down', async () => {
  harness.simulator.injectFault({ route: 'image', fault: 'http500' });
  const { job, uid } = await harness.submit('image', imageRequest(), { attempts: 10 });

  await vi.waitUntil(async () => (await breakerState('stability')) === 2, { timeout: 5000, interval: 25 });
  const sent = harness.simulator.stats().requests.image;
  // Three failures opened it; the next attempt was refused without reaching the provider.
  expect(sent).toBe(3);

  await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS / 2));
  expect(harness.simulator.stats().requests.image).toBe(sent);
  const waiting = (await harness.queue('image').getJob(job.id!))!;
  expect(['prioritized', 'active', 'delayed']).toContain(await waiting.getState());
  // Refused while open, the job was put back without spending its attempts.
  expect(waiting.attemptsMade).toBe(3);

  harness.simulator.clearFaults();
  const { state, job: done } = await harness.settled('image', job, 10_000);
  expect(state).toBe('completed');
  expect(done.attemptsMade).toBe(4);
  expect(harness.simulator.stats().requests.image).toBe(sent + 1);
  expect(await breakerState('stability')).toBe(0);
  expect((await harness.balance(uid)).image).toBe(0);

  const { logs } = await harness.queue('image').getJobLogs(job.id!);
  expect(logs.some((line) => /stability text_to_image: http_5xx in \d+ ms/.test(line))).toBe(true);
  expect(logs.some((line) => /attempt 1 failed: IMAGE_PROVIDER_ERROR .*; next try in 20 ms/.test(line))).toBe(true);
  expect(logs.some((line) => line.includes('not sent, circuit breaker open'))).toBe(true);
  expect(logs.some((line) => /image queue paused for \d+ ms; job back to waiting, attempt not used/.test(line))).toBe(
    true,
  );
  expect(logs.some((line) => /stability text_to_image: ok in \d+ ms/.test(line))).toBe(true);
});
