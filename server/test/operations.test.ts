import { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import type { GenerationWorkers } from '@mediagen/worker';
import { queueName } from '@mediagen/core';
import type { Generation } from '@mediagen/shared';
import { connectUserSocket, createTestContext, jobEnded, type TestApp, type TestContext } from './support/app';
import { sample, scrape } from './support/metrics';
import { apiClient, speechRequest, videoRequest } from './support/requests';
import { startTestWorkers } from './support/workers';
import { createTestUser } from './support/users';

/**
 * Metrics, queue positions and cancel across instances, with real workers and the provider simulator:
 * two server instances on the same Redis, as behind a load balancer.
 */
let context: TestContext;
let serverA: TestApp;
let serverB: TestApp;
let simulator: Simulator;
let workers: GenerationWorkers;
let speechQueue: Queue;

beforeAll(async () => {
  context = await createTestContext();
  simulator = createSimulator({ latencyMs: 250, videoQueueingMs: 500, videoProcessingMs: 8000 });
  await simulator.listen();
  serverA = await context.start({ JOB_BACKOFF_MS: '50' });
  serverB = await context.start({ JOB_BACKOFF_MS: '50' });
  workers = await startTestWorkers(context, simulator, { CONCURRENCY_SPEECH: '1' });
  speechQueue = new Queue(queueName('speech'), { connection: context.redis, prefix: context.prefix });
});

afterAll(async () => {
  await speechQueue?.resume();
  await speechQueue?.close();
  await workers?.close(1000);
  await context.cleanup();
  await simulator?.close();
});

beforeEach(() => simulator.clearFaults());

async function waitFor(api: ReturnType<typeof apiClient>, id: string, status: Generation['status']) {
  return vi.waitUntil(
    async () => {
      const read = await api.get(id);
      return read.body.status === status ? (read.body as Generation) : undefined;
    },
    { timeout: 15_000, interval: 25 },
  );
}

describe('/metrics', () => {
  it('exposes the series, and they move when a job runs through the workers', async () => {
    const user = await createTestUser();
    const api = apiClient(serverA.origin, user);
    const before = await scrape(serverA.origin);
    const workerBefore = await workers.metrics.registry.metrics();
    for (const name of ['mediagen_queue_jobs', 'mediagen_sockets_connected', 'process_cpu_user_seconds_total']) {
      expect(before).toContain(`# TYPE ${name}`);
    }
    for (const name of ['mediagen_job_wait_seconds', 'mediagen_job_run_seconds']) {
      expect(workerBefore).toContain(`# TYPE ${name}`);
    }

    const { socket, updates } = await connectUserSocket(serverA.origin, user.idToken);
    try {
      expect(sample(await scrape(serverA.origin), 'mediagen_sockets_connected')).toBe(1);
      const { body } = await api.submit(speechRequest('count me'));
      await vi.waitUntil(() => updates.find((update) => update.id === body.id && update.status === 'completed'), {
        timeout: 15_000,
        interval: 25,
      });
    } finally {
      socket.disconnect();
    }

    const labels = { kind: 'speech' };
    // The worker that ran the job observed it, once: the series of all workers add up.
    const workerAfter = await workers.metrics.registry.metrics();
    const completedRuns = { ...labels, outcome: 'completed' };
    expect(sample(workerAfter, 'mediagen_job_run_seconds_count', completedRuns)).toBe(
      sample(workerBefore, 'mediagen_job_run_seconds_count', completedRuns) + 1,
    );
    expect(sample(workerAfter, 'mediagen_job_wait_seconds_count', labels)).toBe(
      sample(workerBefore, 'mediagen_job_wait_seconds_count', labels) + 1,
    );
    const after = await vi.waitUntil(
      async () => {
        const text = await scrape(serverA.origin);
        return sample(text, 'mediagen_event_delivery_lag_seconds_count', { ...labels, event: 'completed' }) >
          sample(before, 'mediagen_event_delivery_lag_seconds_count', { ...labels, event: 'completed' })
          ? text
          : undefined;
      },
      { timeout: 5000, interval: 25 },
    );
    expect(sample(after, 'mediagen_queue_jobs', { ...labels, state: 'completed' })).toBe(
      sample(before, 'mediagen_queue_jobs', { ...labels, state: 'completed' }) + 1,
    );
    expect(
      sample(after, 'mediagen_http_requests_total', { method: 'POST', route: '/api/generations', status: '202' }),
    ).toBe(1);
    expect(
      sample(await scrape(serverB.origin), 'mediagen_http_requests_total', {
        method: 'POST',
        route: '/api/generations',
        status: '202',
      }),
    ).toBe(0);
    // The disconnect reaches the server a moment later.
    await vi.waitUntil(
      async () => (sample(await scrape(serverA.origin), 'mediagen_sockets_connected') === 0 ? true : undefined),
      { timeout: 5000, interval: 25 },
    );
  });

  it('counts quota refusals', async () => {
    const user = await createTestUser();
    const api = apiClient(serverA.origin, user);
    const before = sample(await scrape(serverA.origin), 'mediagen_quota_refusals_total', { kind: 'speech' });
    const accepted = [await api.submit(speechRequest('one')), await api.submit(speechRequest('two'))];
    expect((await api.submit(speechRequest('three'))).status).toBe(402);
    expect(sample(await scrape(serverA.origin), 'mediagen_quota_refusals_total', { kind: 'speech' })).toBe(before + 1);
    for (const { body } of accepted) await waitFor(api, body.id, 'completed');
  });

  it('needs the bearer METRICS_TOKEN when one is set', async () => {
    const guarded = await context.start({ METRICS_TOKEN: 'a-long-enough-metrics-token' });
    expect((await fetch(`${guarded.origin}/metrics`)).status).toBe(401);
    expect((await fetch(`${guarded.origin}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const text = await scrape(guarded.origin, { authorization: 'Bearer a-long-enough-metrics-token' });
    expect(text).toContain('mediagen_queue_jobs');
    await guarded.close();
  });
});

describe('cancel from another server instance', () => {
  it('stops a running video job: polling stops, the token stays spent (the provider started), the first instance tells the owner', async () => {
    const user = await createTestUser();
    const onA = apiClient(serverA.origin, user);
    const onB = apiClient(serverB.origin, user);
    const refundsBefore = sample(await scrape(serverB.origin), 'mediagen_server_refunds_total', { kind: 'video' });
    const { socket, updates } = await connectUserSocket(serverA.origin, user.idToken);
    try {
      const { body } = await onA.submit(videoRequest('a very slow sunrise'));
      await waitFor(onB, body.id, 'active');
      const queriesAtStart = simulator.stats().requests['video.query'];
      await vi.waitUntil(() => (simulator.stats().requests['video.query'] > queriesAtStart + 2 ? true : undefined), {
        timeout: 5000,
        interval: 25,
      });

      const canceled = await onB.cancel(body.id);
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({ id: body.id, status: 'canceled', token: 'spent' });
      // The provider was rendering: a refund here would buy unlimited paid renders.
      expect((await onA.me()).body.tokens.video).toBe(0);
      expect(sample(await scrape(serverB.origin), 'mediagen_server_refunds_total', { kind: 'video' })).toBe(
        refundsBefore,
      );

      // Polling stops: the job ends (a poll already under way may finish), and nothing brings it back.
      await expect.poll(() => jobEnded(serverA, body.id), { timeout: 5000 }).toBe(true);

      await vi.waitUntil(() => updates.find((update) => update.id === body.id && update.status === 'canceled'), {
        timeout: 5000,
        interval: 25,
      });
      expect((await onA.get(body.id)).body.status).toBe('canceled');
      // The slot is free again at once.
      const account = await serverA.app.database.db
        .selectFrom('accounts')
        .select('in_flight')
        .where('uid', '=', user.uid)
        .executeTakeFirstOrThrow();
      expect(account.in_flight).toBe(0);
    } finally {
      socket.disconnect();
    }
  });
});

describe('queue position and ETA', () => {
  it('waiting jobs show positions 1, 2, 3 with an ETA, and hear new positions as the queue moves', async () => {
    // One run of the kind first, so the ETA has a recent run time to go by.
    const warmUser = await createTestUser();
    const warm = apiClient(serverA.origin, warmUser);
    await waitFor(warm, (await warm.submit(speechRequest('warm up'))).body.id, 'completed');

    await speechQueue.pause();
    const alice = await createTestUser();
    const bob = await createTestUser();
    const aliceApi = apiClient(serverA.origin, alice);
    const bobApi = apiClient(serverB.origin, bob);
    const { socket, updates } = await connectUserSocket(serverB.origin, bob.idToken);
    try {
      const first = await aliceApi.submit(speechRequest('first'));
      const second = await aliceApi.submit(speechRequest('second'));
      const third = await bobApi.submit(speechRequest('third'));
      expect(third.body.queue).toMatchObject({ position: 3 });
      // The run times are the workers' record in Redis: a server started after the runs knows them too.
      const fresh = await context.start({ JOB_BACKOFF_MS: '50' });
      const fromFresh = await apiClient(fresh.origin, bob).get(third.body.id);
      expect(fromFresh.body.queue).toMatchObject({ position: 3, etaMs: expect.any(Number) });
      await fresh.close();

      const readAll = () =>
        Promise.all([aliceApi.get(first.body.id), aliceApi.get(second.body.id), bobApi.get(third.body.id)]);
      const queued = await readAll();
      expect(queued.map((read) => read.body.status)).toEqual(['queued', 'queued', 'queued']);
      expect(queued.map((read) => read.body.queue.position)).toEqual([1, 2, 3]);
      // Each read divides by the workers connected at that moment; on a busy machine a worker connection
      // may be between reconnects, so read again until the three reads saw the same fleet.
      const etas = await vi.waitUntil(
        async () => {
          const read = (await readAll()).map((answer) => answer.body.queue.etaMs as number);
          return read[0]! > 0 && read[1]! > read[0]! && read[2]! > read[1]! ? read : undefined;
        },
        { timeout: 5000, interval: 50 },
      );
      expect(etas.every((eta) => Number.isInteger(eta))).toBe(true);
      await vi.waitUntil(() => updates.find((update) => update.id === third.body.id && update.queue?.position === 3), {
        timeout: 5000,
        interval: 25,
      });

      await speechQueue.resume();
      const moved = await vi.waitUntil(
        () =>
          updates.find(
            (update) => update.id === third.body.id && update.status === 'queued' && update.queue!.position < 3,
          ),
        { timeout: 5000, interval: 25 },
      );
      expect(moved.queue!.position).toBeGreaterThanOrEqual(1);
      const done = await vi.waitUntil(
        () => updates.find((update) => update.id === third.body.id && update.status === 'completed'),
        { timeout: 15_000, interval: 25 },
      );
      expect(done.queue).toBeUndefined();
      await waitFor(aliceApi, second.body.id, 'completed');
    } finally {
      socket.disconnect();
      await speechQueue.resume();
    }
  });
});
