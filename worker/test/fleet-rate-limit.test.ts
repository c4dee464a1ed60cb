import { afterAll, beforeAll, expect, it } from 'vitest';
import { WorkerHarness, imageRequest } from './support/harness';

// Stability's shape (requests per window, then a lockout), scaled down so the test takes seconds; the
// margin is wide for such a short window, so a loaded machine's event-loop lag cannot tip it over.
const LIMIT = { max: 10, windowMs: 1000, lockoutMs: 30_000 };
const JOBS = 30;
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start(
    { rateLimits: { stability: LIMIT } },
    { STABILITY_RATE_LIMIT: `${LIMIT.max}/${LIMIT.windowMs}/${LIMIT.lockoutMs}`, PROVIDER_RATE_MARGIN_MS: '500' },
  );
  // Two pools stand for two worker processes: they share the limit through Redis, not through memory.
  await harness.startWorkers({ kinds: ['image'], concurrency: { image: 8, video: 1, speech: 1 } });
  await harness.startWorkers({ kinds: ['image'], concurrency: { image: 8, video: 1, speech: 1 } });
});
afterAll(() => harness.stop());

it("keeps the whole fleet within the provider's limit: every job completes and the provider never locks the key out", async () => {
  const startedAt = Date.now();
  // One prompt: the simulator serves its cached render, so it answers at once and counts each request
  // when it arrives, as a provider does, not after rendering the ones before it.
  const submitted = await Promise.all(Array.from({ length: JOBS }, () => harness.submit('image', imageRequest())));
  const settled = await Promise.all(submitted.map(({ job }) => harness.settled('image', job, 20_000)));

  expect(settled.map(({ state }) => state)).toEqual(Array(JOBS).fill('completed'));
  expect(harness.simulator.stats()).toMatchObject({ lockouts: 0, rateLimited: { image: 0 } });
  expect(harness.simulator.stats().requests.image).toBe(JOBS);
  // 30 calls at 10 per window need at least two more windows after the first burst.
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2 * LIMIT.windowMs);
  // Held back without spending attempts.
  expect(settled.every(({ job }) => job.attemptsMade === 1)).toBe(true);
});
