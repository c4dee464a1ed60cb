import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  GenerationLifecycle,
  cancellationChannel,
  connectRedis,
  generationJobOptions,
  newGenerationId,
  queueName,
  type GenerationJobData,
  type RequestByKind,
} from '@mediagen/core';
import { DEFAULT_PLAN_RULES, GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import { createTestDatabase, type TestDatabase } from '@mediagen/testing';
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
const retry = { attempts: 1, backoffMs: 10 };
const retention = { completedSeconds: 3600, failedSeconds: 3600 };
let database: TestDatabase;
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

/** Records and enqueues, like the API. `text` steers the stand-in worker: fail, hold or succeed. */
async function submit(kind: GenerationKind, text: string, options: { uid?: string; delay?: number } = {}) {
  const uid = options.uid ?? `user-${randomUUID()}`;
  const outcome = await ctx.lifecycle.submit({
    id: newGenerationId(kind),
    uid,
    kind,
    request: requests[kind](text) as unknown as Record<string, unknown>,
    prompt: text,
    maxInFlight: 10,
  });
  if (outcome.status !== 'accepted') throw new Error(outcome.status);
  const { id } = outcome.generation;
  const job = await ctx.queues[kind].add(
    kind,
    { kind },
    {
      ...generationJobOptions(id, retry, retention, DEFAULT_PLAN_RULES.free.queuePriority),
      ...(options.delay === undefined ? {} : { delay: options.delay }),
    },
  );
  return { id, uid, job };
}

/** A stand-in for the real worker, through the same lifecycle: enough to put generations in every state. */
async function startWorker(kind: GenerationKind): Promise<Worker> {
  const connection = await connectRedis(REDIS_URL, 'blocking');
  const lifecycle = new GenerationLifecycle(ctx.database.db);
  const worker = new Worker<GenerationJobData>(
    queueName(kind),
    async (job) => {
      const started = await lifecycle.start(job.id!);
      if (!started.ok) return;
      const text = started.generation.prompt;
      await job.log(`processing ${text}`);
      if (text === 'fail') {
        await lifecycle.fail(job.id!, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
        throw new UnrecoverableError('Failed to generate image');
      }
      if (text === 'hold') {
        await lifecycle.providerStarted(job.id!);
        await new Promise<void>((release) => held.set(job.id!, release));
        return;
      }
      await lifecycle.complete(job.id!, { key: `${job.id}.png`, mimeType: 'image/png', bytes: 1 });
    },
    { connection, prefix },
  );
  workers.push({ worker, connection });
  return worker;
}

const statusOf = async (id: string) => (await ctx.lifecycle.find(id))?.status;

beforeAll(async () => {
  database = await createTestDatabase('ops');
  ctx = await openOpsContext({
    plans: DEFAULT_PLAN_RULES,
    databaseUrl: database.url,
    redis: { kind: 'direct', url: REDIS_URL },
    queuePrefix: prefix,
    jobs: retry,
    jobRetention: retention,
    maxInFlightPerUser: 10,
  });
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
  await database.drop();
});
beforeEach(async () => {
  for (const kind of GENERATION_KINDS) await ctx.queues[kind].obliterate({ force: true });
});

describe('counts, job and find', () => {
  it('counts jobs per state, paused queues included, beside what the record holds in flight', async () => {
    await submit('image', 'one');
    await submit('image', 'two');
    await submit('speech', 'later', { delay: 60_000 });
    await setPaused(ctx, ['video'], true);
    const counts = await countJobs(ctx);
    const image = counts.find((queue) => queue.kind === 'image')!;
    expect(image.counts.prioritized).toBe(2);
    expect(image.record.queued).toBeGreaterThanOrEqual(2);
    expect(counts.find((queue) => queue.kind === 'speech')!.counts.delayed).toBe(1);
    expect(counts.find((queue) => queue.kind === 'video')!.paused).toBe(true);
    expect(image.paused).toBe(false);
    const { text } = await runCommand(ctx, { name: 'counts' });
    expect(text).toMatch(/generation-image\s+0\s+0\s+0\s+2\s/);
    await setPaused(ctx, ['video'], false);
  });

  it('shows the record of one generation and its job with logs, and refuses an unknown id', async () => {
    const worker = await startWorker('image');
    const { id, uid } = await submit('image', 'fail');
    await vi.waitUntil(async () => (await ctx.queues.image.getJob(id))?.isFailed(), { timeout: 5000, interval: 25 });
    const record = await jobRecord(ctx, id);
    expect(record.generation).toMatchObject({
      id,
      uid,
      status: 'failed',
      token: 'refunded',
      error: { code: 'IMAGE_FAILED' },
    });
    expect(record.job).toMatchObject({
      state: 'failed',
      failedReason: 'Failed to generate image',
      attempts: { made: 1, allowed: 1 },
      data: { kind: 'image' },
      logs: ['processing fail'],
    });
    await expect(jobRecord(ctx, `image_${'0'.repeat(32)}`)).rejects.toThrow(NotFoundError);
    await expect(jobRecord(ctx, 'no-kind-prefix')).rejects.toThrow(NotFoundError);
    await worker.close();
  });

  it("finds a user's generations across kinds, newest first, and a video by its provider task id", async () => {
    const uid = `user-${randomUUID()}`;
    const image = await submit('image', 'mine', { uid });
    const speech = await submit('speech', 'mine too', { uid });
    await submit('image', 'someone else');
    const byUser = await findJobs(ctx, 'user', uid, 100);
    expect(byUser.generations.map((generation) => generation.id)).toEqual([speech.id, image.id]);

    const video = await submit('video', 'a task');
    await ctx.lifecycle.start(video.id);
    await ctx.lifecycle.recordProviderTask(video.id, 'task-42');
    expect((await findJobs(ctx, 'task', 'task-42', 100)).generations).toMatchObject([
      { id: video.id, taskId: 'task-42' },
    ]);
    expect((await findJobs(ctx, 'task', 'task-missing', 100)).generations).toEqual([]);
  });
});

describe('pause, resume and retry-failed', () => {
  it('a paused queue keeps its jobs waiting until resumed', async () => {
    await setPaused(ctx, ['speech'], true);
    const worker = await startWorker('speech');
    const { id } = await submit('speech', 'hello');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await statusOf(id)).toBe('queued');
    expect(await setPaused(ctx, ['speech'], false)).toEqual([{ kind: 'speech', paused: false }]);
    await vi.waitUntil(async () => (await statusOf(id)) === 'completed', { timeout: 5000, interval: 25 });
    await worker.close();
  });

  it('retries failed generations, charging their owners again; --free does not charge; canceled ones stay', async () => {
    const worker = await startWorker('image');
    const failed = await submit('image', 'fail');
    await vi.waitUntil(async () => (await statusOf(failed.id)) === 'failed', { timeout: 5000, interval: 25 });
    const canceled = await submit('image', 'x', { delay: 60_000 });
    await ctx.lifecycle.cancel(canceled.id, { by: 'owner', uid: canceled.uid });
    // The cause of the failure is gone: its prompt now succeeds (the stand-in reads it from the record).
    await ctx.database.db.updateTable('generations').set({ prompt: 'ok now' }).where('id', '=', failed.id).execute();

    // Failures left by earlier tests are retried too: only this test's two generations are checked.
    const outcomes = await retryFailed(ctx, ['image'], { limit: 10, free: false });
    expect(outcomes).toContainEqual({
      id: failed.id,
      kind: 'image',
      uid: failed.uid,
      result: 'retried',
      charged: true,
    });
    expect(outcomes.map((outcome) => outcome.id)).not.toContain(canceled.id);
    await vi.waitUntil(async () => (await statusOf(failed.id)) === 'completed', { timeout: 5000, interval: 25 });
    expect(await ctx.lifecycle.find(failed.id)).toMatchObject({ status: 'completed', token: 'spent' });
    expect((await ctx.lifecycle.balance(failed.uid)).tokens.image).toBe(0);
    expect(await statusOf(canceled.id)).toBe('canceled');

    const again = await submit('image', 'fail');
    await vi.waitUntil(async () => (await statusOf(again.id)) === 'failed', { timeout: 5000, interval: 25 });
    const free = await retryFailed(ctx, ['image'], { limit: 10, free: true });
    expect(free).toContainEqual({ id: again.id, kind: 'image', uid: again.uid, result: 'retried', charged: false });
    await vi.waitUntil(async () => (await statusOf(again.id)) === 'failed', { timeout: 5000, interval: 25 });
    // Waived: it ran on the house, and its failure gave nothing back that was never taken.
    expect(await ctx.lifecycle.find(again.id)).toMatchObject({ token: 'waived' });
    expect((await ctx.lifecycle.balance(again.uid)).tokens.image).toBe(1);
    await worker.close();
  });

  it('skips an owner with no token left', async () => {
    const worker = await startWorker('video');
    const uid = `user-${randomUUID()}`;
    const failed = await submit('video', 'fail', { uid });
    await vi.waitUntil(async () => (await statusOf(failed.id)) === 'failed', { timeout: 5000, interval: 25 });
    await submit('video', 'x', { uid, delay: 60_000 });
    expect(await retryFailed(ctx, ['video'], { limit: 5, free: false })).toEqual([
      { id: failed.id, kind: 'video', uid, result: 'skipped: no tokens left', charged: false },
    ]);
    await worker.close();
  });
});

describe('drain-user', () => {
  it("cancels the user's generations like their own cancels: listed as canceled, refunded unless paid work began", async () => {
    const uid = `user-${randomUUID()}`;
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, id: string) => heard.push(id));
    await subscriber.subscribe(cancellationChannel(prefix));
    await startWorker('image');
    const active = await submit('image', 'hold', { uid });
    await vi.waitUntil(async () => held.has(active.id), { timeout: 5000, interval: 25 });
    const waiting = await submit('speech', 'waiting', { uid });
    const delayed = await submit('speech', 'delayed', { uid, delay: 60_000 });
    const bystander = await submit('speech', 'not theirs');
    expect((await ctx.lifecycle.balance(uid)).tokens).toEqual({ image: 0, video: 1, speech: 0 });

    const result = await drainUser(ctx, uid, 'abuse report 42');
    expect(result.generations).toEqual(
      expect.arrayContaining([
        { id: active.id, kind: 'image', was: 'active', outcome: 'canceled', token: 'spent', jobRemoved: false },
        { id: waiting.id, kind: 'speech', was: 'queued', outcome: 'canceled', token: 'refunded', jobRemoved: true },
        { id: delayed.id, kind: 'speech', was: 'queued', outcome: 'canceled', token: 'refunded', jobRemoved: true },
      ]),
    );
    // The provider had started the image: draining never hands out a paid generation for free.
    expect(result.tokens).toEqual({ image: 0, video: 1, speech: 2 });
    expect(await ctx.queues.speech.getJob(waiting.id)).toBeUndefined();
    expect(await statusOf(bystander.id)).toBe('queued');
    // Their history keeps them, as canceled.
    const history = await findJobs(ctx, 'user', uid, 10);
    expect(history.generations.map((generation) => generation.status)).toEqual(['canceled', 'canceled', 'canceled']);
    const ledger = await ctx.database.db
      .selectFrom('token_ledger')
      .select('reason')
      .where('uid', '=', uid)
      .where('movement', 'in', ['refund', 'spend'])
      .execute();
    expect(ledger.map((line) => line.reason)).toEqual(Array(3).fill('canceled by an operator: abuse report 42'));
    await vi.waitUntil(async () => heard.includes(active.id), { timeout: 5000, interval: 25 });
    held.get(active.id)!();
  });
});

describe('the queues CLI process', () => {
  const run = (...args: string[]) =>
    promisify(execFile)(resolve(ROOT, 'node_modules/.bin/tsx'), ['ops/src/queues-cli.ts', ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        MEDIAGEN_MODE: 'development',
        DATABASE_URL: database.url,
        REDIS_URL,
        QUEUE_PREFIX: prefix,
      },
    });

  it('prints counts as JSON and exits 0', async () => {
    await submit('video', 'queued');
    const { stdout } = await run('counts', '--json');
    const counts = JSON.parse(stdout) as { kind: string; counts: { prioritized: number } }[];
    expect(counts.find((queue) => queue.kind === 'video')!.counts.prioritized).toBe(1);
  });

  it('exits 2 with a message for an unknown generation, command or kind', async () => {
    for (const args of [['job', `image_${'0'.repeat(32)}`], ['frobnicate'], ['pause', 'cats']]) {
      const failure = await run(...args).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toMatch(/^error: /);
    }
  });
});
