import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../simulator/src/index';
import type { GenerationKind } from '../shared/src/index';
import { createTestContext, eventually, REDIS_URL, type TestApp, type TestContext } from '../server/test/support/app';
import { createTestUser } from '../server/test/support/users';
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
  const detach = server.app.generationQueues.onQueueEvent((_kind, event, jobId) => {
    if (event === 'completed') completedEvents.set(jobId, (completedEvents.get(jobId) ?? 0) + 1);
  });
  const queues = server.app.generationQueues;
  try {
    const first = startWorker();
    await first.ready;
    const user = await createTestUser();

    const video = await submit(server.origin, user, REQUESTS.video);
    expect(video.status).toBe(202);
    // The provider task id is saved before the first poll; from then on a crash must not start another.
    const taskId = await eventually(
      async () => (await queues.getJob('video', video.body.id))?.data.video?.taskId,
      15_000,
    );

    const image = await submit(server.origin, user, REQUESTS.image);
    const speech = await submit(server.origin, user, REQUESTS.speech);
    expect([image.status, speech.status]).toEqual([202, 202]);
    const ids: Record<GenerationKind, string> = { image: image.body.id, video: video.body.id, speech: speech.body.id };
    await eventually(async () => {
      const states = await Promise.all(
        (['image', 'speech'] as const).map(async (kind) => (await queues.getJob(kind, ids[kind]))?.getState()),
      );
      return states.every((state) => state === 'active') ? true : undefined;
    }, 10_000);
    await sleep(300);
    const requestsBeforeKill = simulator.stats().requests;
    // Both provider calls are open at the simulator (it answers after PROVIDER_LATENCY_MS).
    expect(requestsBeforeKill.image).toBe(1);
    expect(requestsBeforeKill.speech).toBe(1);

    first.kill('SIGKILL');
    expect(await first.exited).toBeNull(); // killed by a signal, not exited
    expect(await queues.getJob('image', ids.image).then((job) => job?.getState())).toBe('active');

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
    expect((await queues.getJob('video', ids.video))?.data.video?.taskId).toBe(taskId);
    expect(simulator.stats().videoTasksCreated).toBe(1);
    expect(simulator.stats().requests['video.create']).toBe(1);
    // One token per job: the allowance is image 1, video 1, speech 2; nothing refunded, nothing charged twice.
    expect(await tokens(server.origin, user)).toEqual({ image: 0, video: 0, speech: 1 });
    const charges = await context.redis.keys(`${context.prefix}:{${user.uid}}:charge:*`);
    expect(charges).toEqual([]); // every charge settled
    expect(second.alive()).toBe(true);
  } finally {
    detach();
  }
}, 180_000);
