import { afterAll, beforeAll, expect, it } from 'vitest';
import { WorkerHarness, imageRequest, speechRequest } from './support/harness';

// Stability's documented lockout is 60 s; this test holds the workers back for a shorter one.
const LOCKOUT_MS = 2500;
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start({}, { STABILITY_RATE_LIMIT: `150/10000/${LOCKOUT_MS}` });
  await harness.startWorkers({ kinds: ['image', 'speech'] });
  // A second process's workers on the same queue must honour the pause too (it lives in Redis).
  await harness.startWorkers({ kinds: ['image'] });
});
afterAll(() => harness.stop());

it("a provider 429 holds every worker back for the provider's lockout, not its shorter Retry-After; other queues keep going; the job keeps its attempts", async () => {
  harness.simulator.injectFault({ route: 'image', fault: 'http429', retryAfterSeconds: 1, times: 1 });
  const startedAt = Date.now();
  const first = await harness.submit('image', imageRequest('first'), { attempts: 1 });
  // Wait until the 429 has paused the queue, so the others meet it paused: a worker's rateLimit() sets the
  // limiter key to MAX_SAFE_INTEGER, which the per-job counter of the worker's own limiter never reaches.
  const paused = () => harness.queue('image').getRateLimitTtl(Number.MAX_SAFE_INTEGER);
  while ((await paused()) <= 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const second = await harness.submit('image', imageRequest('second'));
  const speech = await harness.submit('speech', speechRequest());

  const spoken = await harness.settled('speech', speech.job);
  expect(spoken.state).toBe('completed');

  const [done, alsoDone] = await Promise.all([
    harness.settled('image', first.job),
    harness.settled('image', second.job),
  ]);
  expect(done.state).toBe('completed');
  expect(alsoDone.state).toBe('completed');
  // Speech went on during the pause: it ended before the image queue took its next job.
  expect(spoken.job.finishedOn!).toBeLessThan(alsoDone.job.processedOn!);
  expect(alsoDone.job.processedOn! - startedAt).toBeGreaterThanOrEqual(LOCKOUT_MS - 100);
  // One attempt allowed, one used: the 429 did not count.
  expect(done.job.attemptsMade).toBe(1);
  expect(harness.simulator.stats().requests.image).toBe(3);
  const { logs } = await harness.queue('image').getJobLogs(first.job.id!);
  expect(
    logs.some((line) =>
      new RegExp(`stability rate limit \\(HTTP 429\\): image queue paused for ${LOCKOUT_MS} ms`).test(line),
    ),
  ).toBe(true);
});
