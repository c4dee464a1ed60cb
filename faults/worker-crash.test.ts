import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { GenerationLifecycle, queueName } from '@mediagen/core';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import { createTestContext, REDIS_URL, type TestApp, type TestContext } from '@mediagen/server/testing';
import { createTestUser } from '@mediagen/server/testing';
import { REQUESTS, finalState, submit, tokens } from './support/api';
import { sleep, spawnWorker, type WorkerProcess } from './support/processes';

/**
 * A worker PROCESS is killed with SIGKILL while an image and a speech call are in flight at the
 * provider and a video task is being polled. Another worker process must finish all three, each exactly
 * once, with one token charged per job and the same provider video task resumed.
 */
let context: TestContext;
let server: TestApp;
let simulator: Simulator;
const workers: WorkerProcess[] = [];

// Long enough that the kill lands mid-call; the video renders in a few polls.
const PROVIDER_LATENCY_MS = 2500;

beforeAll(async () => {
  simulator = createSimulator({ latencyMs: PROVIDER_LATENCY_MS, videoQueueingMs: 500, videoProcessingMs: 1500 });
  await simulator.listen();
  context = await createTestContext();
  // The test polls three generations until they end; the per-user rate limit is not what it tests.
  server = await context.start({ JOB_BACKOFF_MS: '100', RATE_LIMIT_PER_MINUTE: '100000' });
});

afterAll(async () => {
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  await context?.cleanup();
  await simulator?.close();
});

function startWorker(): WorkerProcess {
  const worker = spawnWorker({
    REDIS_URL,
    DATABASE_URL: context.database.url,
    QUEUE_PREFIX: context.prefix,
    DATA_DIR: context.dataDir,
    SIMULATOR_URL: simulator.url,
    VIDEO_POLL_INTERVAL_MS: '100',
    SHUTDOWN_GRACE_MS: '1000',
    // A killed worker's jobs count as stalled once their lock lapses; BullMQ's default (30 s) would make
    // this test wait up to a minute.
    WORKER_LOCK_MS: '3000',
  });
  workers.push(worker);
  return worker;
}

it('SIGKILL mid-call: every job completes exactly once on another worker, one token each, same video task', async () => {
  const completedEvents = new Map<string, number>();
  const events = GENERATION_KINDS.map((kind) => {
    const queueEvents = new QueueEvents(queueName(kind), {
      connection: context.redis.duplicate({ maxRetriesPerRequest: null }),
      prefix: context.prefix,
    });
    queueEvents.on('completed', ({ jobId }) => completedEvents.set(jobId, (completedEvents.get(jobId) ?? 0) + 1));
    return queueEvents;
  });
  await Promise.all(events.map((queueEvents) => queueEvents.waitUntilReady()));
  const queues = server.app.jobs;
  const record = new GenerationLifecycle(server.app.database.db);
  const providerTask = async (id: string) => (await record.find(id))?.providerTaskId ?? undefined;
  try {
    const first = startWorker();
    await first.ready;
    const user = await createTestUser();

    const video = await submit(server.origin, user, REQUESTS.video);
    expect(video.status).toBe(202);
    // The provider task id is saved before the first poll; from then on a crash must not start another.
    const taskId = await vi.waitUntil(() => providerTask(video.body.id), { timeout: 15_000, interval: 50 });

    const image = await submit(server.origin, user, REQUESTS.image);
    const speech = await submit(server.origin, user, REQUESTS.speech);
    expect([image.status, speech.status]).toEqual([202, 202]);
    const ids: Record<GenerationKind, string> = { image: image.body.id, video: video.body.id, speech: speech.body.id };
    await vi.waitUntil(
      async () => {
        const states = await Promise.all(
          (['image', 'speech'] as const).map((kind) => queues.queue(kind).getJobState(ids[kind])),
        );
        return states.every((state) => state === 'active');
      },
      { timeout: 10_000, interval: 50 },
    );
    // Both provider calls are open at the simulator (it answers after PROVIDER_LATENCY_MS): the image's
    // request, and the speech's Realtime connection.
    await vi.waitUntil(
      () => {
        const { requests } = simulator.stats();
        return requests.image === 1 && requests['realtime.connect'] === 1;
      },
      { timeout: 10_000, interval: 25 },
    );

    first.kill('SIGKILL');
    expect(await first.exited).toBeNull(); // killed by a signal, not exited
    expect(await queues.queue('image').getJobState(ids.image)).toBe('active');

    const second = startWorker();
    await second.ready;
    const killedAt = Date.now();
    const endedAfterMs: number[] = [];
    const ended = await Promise.all(
      (['image', 'video', 'speech'] as const).map(async (kind) => {
        const generation = await finalState(server.origin, user, ids[kind], 120_000);
        endedAfterMs.push(Date.now() - killedAt);
        if (process.env.FAULTS_DEBUG) console.log(`${kind} ended ${generation.status} after ${endedAfterMs.at(-1)} ms`);
        return generation;
      }),
    );
    expect(ended.map((generation) => generation.status)).toEqual(['completed', 'completed', 'completed']);
    // Taken over once the 3 s lock lapses and a stalled check runs (here about 7 s for image and speech,
    // 12 s for the video's remaining polls); the bound leaves room for a loaded CI machine.
    expect(Math.max(...endedAfterMs)).toBeLessThan(30_000);
    for (const generation of ended) {
      const download = await fetch(generation.result!.url);
      expect(download.status).toBe(200);
      await download.arrayBuffer();
    }

    // Give a duplicate completion time to show up before counting.
    await sleep(1500);
    for (const id of Object.values(ids)) expect(completedEvents.get(id), id).toBe(1);
    expect(await providerTask(ids.video)).toBe(taskId);
    expect(simulator.stats().videoTasksCreated).toBe(1);
    expect(simulator.stats().requests['video.create']).toBe(1);
    // One token per job: the allowance is image 1, video 1, speech 2; nothing refunded, nothing charged twice.
    expect(await tokens(server.origin, user)).toEqual({ image: 0, video: 0, speech: 1 });
    // Every charge settled as spent, once: the ledger has one charge and one spend per generation.
    const movements = await server.app.database.db
      .selectFrom('token_ledger')
      .select(['generation_id', 'movement'])
      .where('uid', '=', user.uid)
      .orderBy('id')
      .execute();
    expect(
      movements
        .filter((row) => row.movement === 'charge')
        .map((row) => row.generation_id)
        .sort(),
    ).toEqual(Object.values(ids).sort());
    expect(
      movements
        .filter((row) => row.movement === 'spend')
        .map((row) => row.generation_id)
        .sort(),
    ).toEqual(Object.values(ids).sort());
    expect(movements.filter((row) => row.movement === 'refund')).toEqual([]);
    expect(second.alive()).toBe(true);
  } finally {
    await Promise.all(events.map((queueEvents) => queueEvents.close()));
  }
}, 180_000);
