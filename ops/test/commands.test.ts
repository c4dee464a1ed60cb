import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  cancellationChannel,
  connectRedis,
  generationJobOptions,
  newGenerationId,
  queueName,
  videoTaskKey,
  type GenerationJobData,
  type RequestByKind,
} from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import {
  NotFoundError,
  countJobs,
  drainUser,
  findJobs,
  jobRecord,
  openOpsContext,
  retryFailed,
  runCommand,
  setPaused,
  type OpsContext,
} from '../src';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT = resolve(import.meta.dirname, '../..');
const prefix = `test-ops-${randomUUID()}`;
let ctx: OpsContext;
let subscriber: Redis;
const workers: { worker: Worker; connection: Redis }[] = [];
/** Jobs whose processor waits here until the test lets them go. */
const held = new Map<string, () => void>();

const requests: { [K in GenerationKind]: (text: string) => RequestByKind[K] } = {
  image: (prompt) => ({ prompt, seed: 1 }),
  video: (prompt) => ({ prompt, quality: 'standard', duration: 6, style: 'cinematic' }),
  speech: (input) => ({ input, voice: 'nova', language: 'en-US', speed: 1 }),
};

/** Charges a token and enqueues, like the API. `text` steers the test processor: fail, hold or succeed. */
async function submit(
  kind: GenerationKind,
  text: string,
  options: { uid?: string; delay?: number; data?: Partial<GenerationJobData> } = {},
) {
  const uid = options.uid ?? `user-${randomUUID()}`;
  const id = newGenerationId(kind);
  expect((await ctx.ledger.consume(uid, kind, id)).status).toBe('charged');
  const data = {
    uid,
    kind,
    request: requests[kind](text),
    createdAt: Date.now(),
    ...options.data,
  } as GenerationJobData;
  const job = await ctx.queues[kind].add(kind, data, {
    ...generationJobOptions(id, { attempts: 1, backoffMs: 10 }),
    ...(options.delay === undefined ? {} : { delay: options.delay }),
  });
  return { id, uid, job: job as Job<GenerationJobData> };
}

function textOf(data: GenerationJobData): string {
  const request = data.request as { prompt?: string; input?: string };
  return request.prompt ?? request.input ?? '';
}

/** A stand-in for the real worker: enough to put jobs in every state. */
async function startWorker(kind: GenerationKind): Promise<Worker> {
  const connection = await connectRedis(REDIS_URL, 'blocking');
  const worker = new Worker<GenerationJobData>(
    queueName(kind),
    async (job) => {
      await job.log(`processing ${textOf(job.data)}`);
      if (textOf(job.data) === 'fail') throw new UnrecoverableError('Failed to generate image');
      if (textOf(job.data) === 'hold') {
        await new Promise<void>((release) => held.set(job.id!, release));
        throw new UnrecoverableError('Generation canceled.');
      }
      return { artifactKey: `${job.id}.png`, mimeType: 'image/png', bytes: 1 };
    },
    { connection, prefix },
  );
  workers.push({ worker, connection });
  return worker;
}

async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const stateOf = async (kind: GenerationKind, id: string) => (await ctx.queues[kind].getJob(id))?.getState();

beforeAll(async () => {
  ctx = await openOpsContext({ redisUrl: REDIS_URL, prefix });
  subscriber = await connectRedis(REDIS_URL, 'blocking');
});
afterAll(async () => {
  for (const release of held.values()) release();
  for (const { worker, connection } of workers) {
    await worker.close();
    await connection.quit();
  }
  await subscriber.quit();
  const keys = await ctx.redis.keys(`${prefix}:*`);
  if (keys.length > 0) await ctx.redis.del(...keys);
  await ctx.close();
});
beforeEach(async () => {
  for (const kind of ['image', 'video', 'speech'] as const) await ctx.queues[kind].obliterate({ force: true });
});

describe('counts, job and find', () => {
  it('counts jobs per state, paused queues included', async () => {
    await submit('image', 'one');
    await submit('image', 'two');
    await submit('speech', 'later', { delay: 60_000 });
    await setPaused(ctx, ['video'], true);
    const counts = await countJobs(ctx);
    const image = counts.find((queue) => queue.kind === 'image')!;
    expect(image.counts.waiting).toBe(2);
    expect(counts.find((queue) => queue.kind === 'speech')!.counts.delayed).toBe(1);
    expect(counts.find((queue) => queue.kind === 'video')!.paused).toBe(true);
    expect(image.paused).toBe(false);
    const { text } = await runCommand(ctx, { name: 'counts' });
    expect(text).toMatch(/generation-image\s+2\s+0/);
    await setPaused(ctx, ['video'], false);
  });

  it('shows the whole record of one job, logs included, and refuses an unknown id', async () => {
    const worker = await startWorker('image');
    const { id, uid } = await submit('image', 'fail');
    await waitFor(async () => (await stateOf('image', id)) === 'failed', 'the job to fail');
    const record = await jobRecord(ctx, id);
    expect(record).toMatchObject({
      id,
      kind: 'image',
      state: 'failed',
      canceled: false,
      failedReason: 'Failed to generate image',
      attempts: { made: 1, allowed: 1 },
      data: { uid, kind: 'image' },
      logs: ['processing fail'],
    });
    expect(record.timestamps.finished).toMatch(/^\d{4}-/);
    await expect(jobRecord(ctx, 'image_0123')).rejects.toThrow(NotFoundError);
    await expect(jobRecord(ctx, 'no-kind-prefix')).rejects.toThrow(NotFoundError);
    await worker.close();
  });

  it("finds a user's jobs across queues and a video job by its provider task id", async () => {
    const uid = `user-${randomUUID()}`;
    const image = await submit('image', 'mine', { uid });
    const speech = await submit('speech', 'mine too', { uid });
    await submit('image', 'someone else');
    const byUser = await findJobs(ctx, 'user', uid, 100);
    expect(byUser.jobs.map((job) => job.id).sort()).toEqual([image.id, speech.id].sort());

    const indexed = await submit('video', 'indexed', { data: { video: { taskId: 'task-indexed', polls: 3 } } });
    await ctx.redis.set(videoTaskKey(prefix, 'task-indexed'), indexed.id);
    const scanned = await submit('video', 'scanned', { data: { video: { taskId: 'task-scanned' } } });
    expect((await findJobs(ctx, 'task', 'task-indexed', 100)).jobs).toMatchObject([
      { id: indexed.id, taskId: 'task-indexed' },
    ]);
    expect((await findJobs(ctx, 'task', 'task-scanned', 100)).jobs).toMatchObject([{ id: scanned.id }]);
    expect((await findJobs(ctx, 'task', 'task-missing', 100)).jobs).toEqual([]);
  });
});

describe('pause, resume and retry-failed', () => {
  it('a paused queue keeps its jobs waiting until resumed', async () => {
    await setPaused(ctx, ['speech'], true);
    const worker = await startWorker('speech');
    const { id } = await submit('speech', 'hello');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await stateOf('speech', id)).toBe('waiting');
    expect(await setPaused(ctx, ['speech'], false)).toEqual([{ kind: 'speech', paused: false }]);
    await waitFor(async () => (await stateOf('speech', id)) === 'completed', 'the job to complete');
    await worker.close();
  });

  it('retries failed jobs, charging their owners again, skipping canceled ones; --free does not charge', async () => {
    const worker = await startWorker('image');
    const failed = await submit('image', 'fail');
    const canceled = await submit('image', 'fail');
    await waitFor(async () => (await ctx.queues.image.getFailedCount()) === 2, 'both jobs to fail');
    for (const job of [failed, canceled]) await ctx.ledger.refund(job.uid, 'image', job.id);
    await ctx.cancellations.cancel(canceled.id);
    await ctx.queues.image
      .getJob(failed.id)
      .then((job) => job!.updateData({ ...job!.data, request: requests.image('ok now'), startedAt: 1 }));

    const outcomes = await retryFailed(ctx, ['image'], { limit: 10, free: false });
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { id: failed.id, kind: 'image', uid: failed.uid, result: 'retried', charged: true },
        { id: canceled.id, kind: 'image', uid: canceled.uid, result: 'skipped: canceled', charged: false },
      ]),
    );
    await waitFor(async () => (await stateOf('image', failed.id)) === 'completed', 'the retried job to complete');
    const retried = (await ctx.queues.image.getJob(failed.id))!;
    expect(retried.data.startedAt).toBeUndefined();
    expect((await ctx.ledger.balance(failed.uid)).tokens.image).toBe(0);

    const again = await submit('image', 'fail');
    await waitFor(async () => (await stateOf('image', again.id)) === 'failed', 'the job to fail');
    await ctx.ledger.refund(again.uid, 'image', again.id);
    const free = await retryFailed(ctx, ['image'], { limit: 1, free: true });
    expect(free).toEqual([{ id: again.id, kind: 'image', uid: again.uid, result: 'retried', charged: false }]);
    expect((await ctx.ledger.balance(again.uid)).tokens.image).toBe(1);
    await worker.close();
  });
});

describe('drain-user', () => {
  it("removes the user's queued jobs, flags the active one for its worker, and refunds every token", async () => {
    const uid = `user-${randomUUID()}`;
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, id: string) => heard.push(id));
    await subscriber.subscribe(cancellationChannel(prefix));
    await startWorker('image');
    const active = await submit('image', 'hold', { uid });
    await waitFor(async () => held.has(active.id), 'the image job to start');
    const waiting = await submit('speech', 'waiting', { uid });
    const delayed = await submit('speech', 'delayed', { uid, delay: 60_000 });
    const bystander = await submit('speech', 'not theirs');
    expect((await ctx.ledger.balance(uid)).tokens).toEqual({ image: 0, video: 1, speech: 0 });

    const result = await drainUser(ctx, uid, { scan: 100, keepJobs: false });
    expect(result.jobs).toEqual(
      expect.arrayContaining([
        { id: active.id, kind: 'image', state: 'active', action: 'canceled, worker stops it', refunded: true },
        { id: waiting.id, kind: 'speech', state: 'waiting', action: 'removed', refunded: true },
        { id: delayed.id, kind: 'speech', state: 'delayed', action: 'removed', refunded: true },
      ]),
    );
    expect(result.tokens).toEqual({ image: 1, video: 1, speech: 2 });
    expect(await ctx.queues.speech.getJob(waiting.id)).toBeUndefined();
    expect(await ctx.queues.speech.getJob(delayed.id)).toBeUndefined();
    expect(await stateOf('speech', bystander.id)).toBe('waiting');
    expect(await ctx.cancellations.isCanceled(active.id)).toBe(true);
    await waitFor(async () => heard.includes(active.id), 'the cancel to be published');
    held.get(active.id)!();
  });
});

describe('the queues CLI process', () => {
  const run = (...args: string[]) =>
    promisify(execFile)(resolve(ROOT, 'node_modules/.bin/tsx'), ['ops/src/queues-cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL, QUEUE_PREFIX: prefix },
    });

  it('prints counts as JSON and exits 0', async () => {
    await submit('video', 'queued');
    const { stdout } = await run('counts', '--json');
    const counts = JSON.parse(stdout) as { kind: string; counts: { waiting: number } }[];
    expect(counts.find((queue) => queue.kind === 'video')!.counts.waiting).toBe(1);
  });

  it('exits 2 with a message for an unknown job, command or kind', async () => {
    for (const args of [['job', 'image_missing'], ['frobnicate'], ['pause', 'cats']]) {
      const failure = await run(...args).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toMatch(/^error: /);
    }
  });
});
