import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import type { Generation } from '@mediagen/shared';
import { createTestContext, type TestApp, type TestContext } from '@mediagen/server/testing';
import { createTestUser, type TestUser } from '@mediagen/server/testing';
import { REQUESTS, activeJobs, call, finalState, submit, tokens } from './support/api';
import { dedicatedRedis, outageWorkers, sleep, type DedicatedRedis, type WorkerProcess } from './support/processes';

/**
 * Redis (a dedicated one, with AOF) goes away while jobs are queued and running, then comes back. The
 * API says 503 meanwhile, nothing crashes, everyone reconnects alone, and no accepted job or token is lost.
 */
let redis: DedicatedRedis;
let context: TestContext;
let server: TestApp;
let simulator: Simulator;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  redis = await dedicatedRedis();
  simulator = createSimulator({ latencyMs: 800, videoQueueingMs: 300, videoProcessingMs: 600 });
  await simulator.listen();
  context = await createTestContext();
  server = await context.start({ REDIS_URL: redis.url, JOB_BACKOFF_MS: '200', RATE_LIMIT_PER_MINUTE: '100000' });
  workers.push(
    ...(await outageWorkers({
      DATABASE_URL: context.database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: context.prefix,
      DATA_DIR: context.dataDir,
      SIMULATOR_URL: simulator.url,
    })),
  );
});

afterAll(async () => {
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  await context?.cleanup();
  await simulator?.close();
  await redis?.remove();
});

it('stop and restart Redis with jobs queued and running: 503 meanwhile, then every accepted job completes', async () => {
  const users: TestUser[] = await Promise.all([1, 2, 3].map(() => createTestUser()));
  const late = await createTestUser();
  const accepted: { user: TestUser; id: string }[] = [];
  for (const user of users) {
    for (const request of [REQUESTS.image, REQUESTS.speech, REQUESTS.video]) {
      const answer = await submit(server.origin, user, request);
      expect(answer.status, answer.text).toBe(202);
      accepted.push({ user, id: answer.body.id });
    }
  }
  // Two image and two speech slots in all: some jobs run at the provider, the rest wait in Redis.
  // The outage must meet work under way: wait until the workers run some of it (they start slowly on a
  // busy machine).
  await vi.waitUntil(async () => (await activeJobs(server)) > 0, { timeout: 30_000, interval: 50 });

  await redis.stop();

  const ready = await vi.waitUntil(
    async () => {
      const answer = await call(server.origin, null, 'GET', '/readyz');
      return answer.status === 503 ? answer : undefined;
    },
    { timeout: 10_000, interval: 100 },
  );
  expect(ready.body).toMatchObject({ error: { code: 'NOT_READY' } });
  const refused = await submit(server.origin, late, REQUESTS.speech);
  expect(refused.status, refused.text).toBe(503);
  expect(refused.body).toEqual({ error: { code: 'NOT_READY', message: expect.any(String) } });
  expect((await call(server.origin, null, 'GET', '/healthz')).status).toBe(200);
  // Reads fail clearly too, never a 500.
  const read = await call(server.origin, users[0]!, 'GET', `/api/generations/${accepted[0]!.id}`);
  expect(read.status, read.text).toBe(503);
  await sleep(3000);
  expect(workers.every((worker) => worker.alive())).toBe(true);

  await redis.start();

  await vi.waitUntil(async () => (await call(server.origin, null, 'GET', '/readyz')).status === 200, {
    timeout: 30_000,
    interval: 200,
  });
  const after = await submit(server.origin, late, REQUESTS.speech);
  expect(after.status, after.text).toBe(202);
  accepted.push({ user: late, id: after.body.id });

  const ended: Generation[] = await Promise.all(
    accepted.map(({ user, id }) => finalState(server.origin, user, id, 90_000)),
  );
  expect(ended.map((generation) => `${generation.id}:${generation.status}`)).toEqual(
    accepted.map(({ id }) => `${id}:completed`),
  );
  for (const user of users) expect(await tokens(server.origin, user)).toEqual({ image: 0, video: 0, speech: 1 });
  // The request refused during the outage charged nothing: only the later one did.
  expect(await tokens(server.origin, late)).toEqual({ image: 1, video: 1, speech: 1 });
  expect(workers.every((worker) => worker.alive())).toBe(true);
  expect(workers.flatMap((worker) => worker.output).join('')).not.toMatch(/uncaught|unhandled/i);
}, 180_000);
