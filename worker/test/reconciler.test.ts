import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UnrecoverableError, Worker } from 'bullmq';
import { connectRedis, newGenerationId, queueName, type GenerationJobData } from '@mediagen/core';
import { REDIS_URL, WorkerHarness, imageRequest, speechRequest, videoRequest } from './support/harness';

/**
 * The reconciler brings the record and the queues back together after what neither sees alone: a job
 * lost with Redis, a generation recorded by an API that died before enqueueing it, a run whose end the
 * database could not be told.
 */
const harness = new WorkerHarness();

beforeAll(async () => {
  // Slow renders, so a video is mid-task when its job disappears.
  await harness.start({ videoQueueingMs: 300, videoProcessingMs: 900 }, { RECONCILE_AFTER_MS: '0' });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

/** Records a generation the way the API does, but leaves the enqueue to the reconciler (the API died). */
async function recordedOnly(kind: 'image' | 'speech', request: object) {
  const outcome = await harness.lifecycle.submit({
    id: newGenerationId(kind),
    uid: `user-${Math.random()}`,
    kind,
    request: request as Record<string, unknown>,
    prompt: 'prompt' in request ? String(request.prompt) : String((request as { input: string }).input),
    maxInFlight: 10,
  });
  if (outcome.status !== 'accepted') throw new Error(outcome.status);
  return outcome.generation;
}

describe('the reconciler', () => {
  it('enqueues a recorded generation that never reached the queue, and it completes', async () => {
    const pool = await harness.startWorkers({ kinds: ['image'] });
    const generation = await recordedOnly('image', imageRequest());
    expect(await harness.queue('image').getJob(generation.id)).toBeUndefined();
    const report = await pool.reconcile();
    expect(report?.requeued).toContain(generation.id);
    const job = (await harness.queue('image').getJob(generation.id))!;
    const { generation: ended } = await harness.settled('image', job);
    expect(ended).toMatchObject({ status: 'completed', token: 'spent' });
    await pool.close(1000);
  });

  it('resumes a video whose job vanished mid-render on the same paid task, without starting another', async () => {
    const pool = await harness.startWorkers({ kinds: ['video'] });
    const { job, id } = await harness.submit('video', videoRequest());
    await vi.waitUntil(async () => (await harness.lifecycle.find(id))?.providerTaskId ?? undefined, {
      timeout: 10_000,
      interval: 25,
    });
    const tasks = harness.simulator.stats().videoTasksCreated;
    // Redis loses the job (a flush, a failover that lost writes): only the record remembers. BullMQ
    // refuses to remove a job while a worker holds it for a poll, so this tries between polls.
    await vi.waitUntil(
      async () => {
        await job.remove().catch(() => undefined);
        return (await harness.queue('video').getJob(id)) === undefined;
      },
      { timeout: 10_000, interval: 25 },
    );

    const report = await pool.reconcile();
    expect(report?.requeued).toContain(id);
    const { generation } = await harness.settled('video', (await harness.queue('video').getJob(id))!);
    expect(generation).toMatchObject({ status: 'completed', paidCalls: 1 });
    expect(harness.simulator.stats().videoTasksCreated).toBe(tasks);
    await pool.close(1000);
  });

  it('ends a generation whose job is gone past its deadline, by the token rules', async () => {
    const pool = await harness.startWorkers({ kinds: ['speech'], jobDeadlineMs: 60_000 });
    const generation = await recordedOnly('speech', speechRequest());
    await harness.lifecycle.start(generation.id);
    // It started long ago, on a worker and a job lost since.
    await harness.records.db
      .updateTable('generations')
      .set({ started_at: new Date(Date.now() - 120_000) })
      .where('id', '=', generation.id)
      .execute();
    const report = await pool.reconcile();
    expect(report?.expired).toContain(generation.id);
    expect(await harness.lifecycle.find(generation.id)).toMatchObject({
      status: 'failed',
      token: 'refunded',
      error: { code: 'SPEECH_FAILED', message: 'Generation took too long - please try again' },
    });
    await pool.close(1000);
  });

  it('tells the record the outcome a run kept when the database could not be told, without running again', async () => {
    const generation = await recordedOnly('speech', speechRequest());
    await harness.lifecycle.start(generation.id);
    const artifact = { key: `${generation.id}.mp3`, mimeType: 'audio/mpeg', bytes: 3 };
    // The worker finished, could not reach the database, kept the outcome with the job and gave up.
    const data: GenerationJobData = { kind: 'speech', outcome: { completed: artifact } };
    const connection = await connectRedis(REDIS_URL, 'blocking');
    const failing = new Worker<GenerationJobData>(
      queueName('speech'),
      async () => {
        throw new UnrecoverableError('database unreachable');
      },
      { connection, prefix: harness.prefix },
    );
    const job = await harness.queue('speech').add('speech', data, { jobId: generation.id });
    await vi.waitUntil(async () => ((await job.getState()) === 'failed' ? true : undefined), {
      timeout: 10_000,
      interval: 25,
    });
    await failing.close();
    connection.disconnect();

    const pool = await harness.startWorkers({ kinds: ['speech'] });
    const calls = harness.simulator.stats().requests.speech;
    const report = await pool.reconcile();
    expect(report?.concluded).toContain(generation.id);
    expect(await harness.lifecycle.find(generation.id)).toMatchObject({ status: 'completed', artifact });
    expect(harness.simulator.stats().requests.speech).toBe(calls);
    await pool.close(1000);
  });

  it('puts a lost job back at the priority its record kept, last of that level in the queue and in the record', async () => {
    // No worker takes speech here: the jobs wait, in an order that can be read.
    const pool = await harness.startWorkers({ kinds: ['image'] });
    const ENTERPRISE = 1;
    // A free job the priority aging moved to the top, whose job was then lost (a Redis flush).
    const lost = await recordedOnly('speech', speechRequest('moved up, then lost'));
    await harness.lifecycle.moveInLine(lost.id, ENTERPRISE);
    // Another moved up after it, whose job survived.
    const stayed = await harness.submit('speech', speechRequest('moved up, still waiting'), { priority: ENTERPRISE });
    await harness.lifecycle.moveInLine(stayed.id, ENTERPRISE);

    expect((await pool.reconcile())?.requeued).toContain(lost.id);
    expect((await harness.queue('speech').getJob(lost.id))?.priority).toBe(ENTERPRISE);
    const ids = [lost.id, stayed.id];
    const queued = (await harness.queue('speech').getPrioritized()).map((job) => job.id!);
    expect(queued.filter((id) => ids.includes(id))).toEqual([stayed.id, lost.id]);
    const recorded = await harness.records.db
      .selectFrom('generations')
      .select('id')
      .where('id', 'in', ids)
      .orderBy('queue_priority')
      .orderBy('queue_order')
      .execute();
    expect(recorded.map((row) => row.id)).toEqual([stayed.id, lost.id]);
    await pool.close(1000);
  });

  it('runs in one process at a time', async () => {
    const [a, b] = [await harness.startWorkers({ kinds: ['image'] }), await harness.startWorkers({ kinds: ['image'] })];
    const reports = await Promise.all([a.reconcile(), b.reconcile(), a.reconcile()]);
    expect(reports.filter((report) => report === null).length).toBeGreaterThanOrEqual(1);
    expect(reports.filter((report) => report !== null).length).toBeGreaterThanOrEqual(1);
    await Promise.all([a.close(1000), b.close(1000)]);
  });
});

describe('paid provider calls per generation', () => {
  it('stops at MAX_PAID_CALLS: a retry past it fails the job, and the calls made keep the token spent', async () => {
    const pool = await harness.startWorkers({
      kinds: ['image'],
      maxPaidCalls: 2,
      stability: { ...harness.config.stability, timeoutMs: 300 },
    });
    // Every call is sent and never answered: each may have cost money.
    harness.simulator.injectFault({ route: 'image', fault: 'hang' });
    const before = harness.simulator.stats().requests.image;
    const { job, uid } = await harness.submit('image', imageRequest(), { attempts: 5, backoffMs: 10 });
    const { state, job: done, generation } = await harness.settled('image', job);
    expect(state).toBe('failed');
    expect(harness.simulator.stats().requests.image - before).toBe(2);
    expect(done.attemptsMade).toBe(3);
    expect(done.failedReason).toBe(
      'Generation stopped: the provider could not finish it in the attempts allowed - please try again',
    );
    expect(generation).toMatchObject({ status: 'failed', paidCalls: 2, token: 'spent' });
    expect((await harness.balance(uid)).image).toBe(0);
    await pool.close(1000);
  });
});
