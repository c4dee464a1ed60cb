import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  AccountClosure,
  GenerationLifecycle,
  cancellationChannel,
  connectRedis,
  generationJobOptions,
  newGenerationId,
  queueName,
  type GenerationJobData,
  type RequestByKind,
} from '@mediagen/core';
import { DAY_MS, DEFAULT_PLAN_RULES, GENERATION_KINDS, type GenerationKind, type PlanId } from '@mediagen/shared';
import { TEST_REDIS_URL, deleteKeys, testPrefix } from '@mediagen/testing';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
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

const REDIS_URL = TEST_REDIS_URL;
const ROOT = resolve(import.meta.dirname, '../..');
const retry = { attempts: 1, backoffMs: 10 };
const retention = { completedSeconds: 3600, failedSeconds: 3600 };
const MAX_IN_FLIGHT = 3;

/**
 * Each test has a database and a key prefix of its own, and what it starts (workers, connections, jobs it
 * holds) ends with it: no test sees another's generations, jobs or workers, whatever order they run in.
 */
let prefix: string;
let database: TestDatabase;
let ctx: OpsContext;
let connections: Redis[];
let workers: Worker[];
/** Jobs whose processor waits here until the test lets them go. */
let held: Map<string, () => void>;

beforeEach(async () => {
  prefix = testPrefix('test-ops');
  database = await createTestDatabase('ops');
  ctx = await openOpsContext({
    plans: DEFAULT_PLAN_RULES,
    databaseUrl: database.url,
    redis: { kind: 'direct', url: REDIS_URL },
    queuePrefix: prefix,
    jobs: retry,
    jobRetention: retention,
    artifactStore: { kind: 'file', directory: resolve(tmpdir(), prefix, 'artifacts') },
    maxInFlightPerUser: MAX_IN_FLIGHT,
    supportMail: { kind: 'off' },
  });
  connections = [];
  workers = [];
  held = new Map();
});
afterEach(async () => {
  for (const release of held.values()) release();
  for (const worker of workers) await worker.close();
  for (const connection of connections) await connection.quit();
  await deleteKeys(ctx.redis, `${prefix}:*`);
  await ctx.close();
  await database.drop();
});

const requests: { [K in GenerationKind]: (text: string) => RequestByKind[K] } = {
  image: (prompt) => ({ prompt, seed: 1 }),
  video: (prompt) => ({ prompt, quality: 'standard', duration: 6, style: 'cinematic' }),
  speech: (input) => ({ input, voice: 'nova', language: 'en-US', speed: 1 }),
};

/** Records and enqueues, like the API. `text` steers the stand-in worker: fail, hold or succeed. */
async function submit(
  kind: GenerationKind,
  text: string,
  options: {
    uid?: string;
    delay?: number;
    request?: Record<string, unknown>;
    plan?: PlanId;
    traceParent?: string;
  } = {},
) {
  const uid = options.uid ?? `user-${randomUUID()}`;
  const outcome = await ctx.lifecycle.submit({
    id: newGenerationId(kind),
    uid,
    kind,
    request: options.request ?? (requests[kind](text) as unknown as Record<string, unknown>),
    prompt: text,
    maxInFlight: 10,
    traceParent: options.traceParent ?? null,
  });
  if (outcome.status !== 'accepted') throw new Error(outcome.status);
  const { id } = outcome.generation;
  const job = await ctx.queues[kind].add(
    kind,
    { kind },
    {
      ...generationJobOptions(id, retry, retention, DEFAULT_PLAN_RULES[outcome.plan].queuePriority),
      ...(options.delay === undefined ? {} : { delay: options.delay }),
    },
  );
  return { id, uid, job };
}

/** A generation that failed before any paid call: its token came back. */
async function failed(
  kind: GenerationKind,
  options: { uid?: string; request?: Record<string, unknown>; traceParent?: string } = {},
) {
  const generation = await submit(kind, 'fail', { ...options, delay: 60_000 });
  await ctx.queues[kind].remove(generation.id);
  await ctx.lifecycle.fail(generation.id, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
  return generation;
}

async function blockingConnection(): Promise<Redis> {
  const connection = await connectRedis(REDIS_URL, 'blocking');
  connections.push(connection);
  return connection;
}

/** A stand-in for the real worker, through the same lifecycle: enough to put generations in every state. */
async function startWorker(kind: GenerationKind): Promise<Worker> {
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
    { connection: await blockingConnection(), prefix },
  );
  workers.push(worker);
  return worker;
}

const statusOf = async (id: string) => (await ctx.lifecycle.find(id))?.status;

/** Moves the start of the user's period back: it is over, and the next charge refills the balance. */
async function periodOver(uid: string): Promise<void> {
  await ctx.database.db
    .updateTable('accounts')
    .set({ period_started_at: new Date(Date.now() - 31 * DAY_MS) })
    .where('uid', '=', uid)
    .execute();
}

describe('a provider out of credit', () => {
  it('spend shows it held back and since when; clear-out-of-credit lets its paid calls go again', async () => {
    await ctx.spend.controls.credit.markOutOfCredit('stability', 'Stability AI error: no balance');
    const marked = await runCommand(ctx, { name: 'spend', by: 'day', days: 1 });
    expect(marked.text).toMatch(/stability: OUT OF CREDIT since \S+ \(Stability AI error: no balance\)/);
    expect(marked.text).toMatch(/stability\s+\S+\s+-\s+held back \(out_of_credit\)/);
    expect(await ctx.spend.controls.holdBack('stability')).toBe('out_of_credit');

    const cleared = await runCommand(ctx, { name: 'clear-out-of-credit', provider: 'stability' });
    expect(cleared.json).toEqual({ provider: 'stability', cleared: true });
    expect(await ctx.spend.controls.holdBack('stability')).toBeNull();
    expect((await runCommand(ctx, { name: 'spend', by: 'day', days: 1 })).text).not.toMatch(/OUT OF CREDIT/);
    expect((await runCommand(ctx, { name: 'clear-out-of-credit', provider: 'stability' })).json).toEqual({
      provider: 'stability',
      cleared: false,
    });
  });
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
    expect(image.record).toEqual({ queued: 2, active: 0 });
    expect(counts.find((queue) => queue.kind === 'speech')!.counts.delayed).toBe(1);
    expect(counts.find((queue) => queue.kind === 'video')!.paused).toBe(true);
    expect(image.paused).toBe(false);
    const { text } = await runCommand(ctx, { name: 'counts' });
    expect(text).toMatch(/generation-image\s+0\s+0\s+0\s+2\s/);
  });

  it('shows the record of one generation and its job with logs, and refuses an unknown id', async () => {
    await startWorker('image');
    const { id, uid } = await submit('image', 'fail');
    await expect.poll(async () => (await ctx.queues.image.getJob(id))?.isFailed()).toBe(true);
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

  it("shows a traced generation's trace id, and a retry of it continues its trace in the workers", async () => {
    const uid = `user-${randomUUID()}`;
    const traceId = randomUUID().replaceAll('-', '');
    const traceParent = `00-${traceId}-${'5'.repeat(16)}-01`;
    const { id } = await failed('image', { uid, traceParent });
    const untraced = await submit('image', 'not traced', { uid, delay: 60_000 });
    const found = await runCommand(ctx, { name: 'find', by: 'user', value: uid, limit: 10 });
    expect(found.text).toMatch(/ trace\b/);
    expect(found.text.split('\n').find((line) => line.startsWith(id))).toContain(traceId);
    const traceIds = new Map(
      (await findJobs(ctx, 'user', uid, 10)).generations.map((generation) => [generation.id, generation.traceId]),
    );
    expect(traceIds).toEqual(
      new Map([
        [id, traceId],
        [untraced.id, undefined],
      ]),
    );

    expect((await retryFailed(ctx, ['image'], { limit: 10, free: true })).map((report) => report.id)).toContain(id);
    // The queue CLI traces nothing itself: the fresh job carries the generation's kept context, which a
    // worker's run of it continues (BullMQ's telemetry metadata).
    const job = await ctx.queues.image.getJob(id);
    expect(JSON.parse(job!.opts.telemetry!.metadata!)).toEqual({ traceparent: traceParent });
  });

  it("shows operators the provider's answer behind a failure, beside what the creator read", async () => {
    const uid = `user-${randomUUID()}`;
    const { id } = await submit('video', 'no credit', { uid });
    await ctx.lifecycle.start(id);
    await ctx.lifecycle.fail(id, {
      code: 'VIDEO_START_FAILED',
      message: 'Video generation is unavailable right now.',
      tellsToken: true,
      providerError: 'minimax http_4xx: Failed to start video generation: insufficient balance (1008)',
    });
    const { text } = await runCommand(ctx, { name: 'find', by: 'user', value: uid, limit: 10 });
    expect(text).toMatch(/provider said/);
    expect(text).toContain(
      'VIDEO_START_FAILED: Video generation is unavailable right now. Your token was returned.  minimax http_4xx: Failed to start video generation: insufficient balance (1008)',
    );
    expect((await jobRecord(ctx, id)).generation.providerError).toBe(
      'minimax http_4xx: Failed to start video generation: insufficient balance (1008)',
    );
  });
});

describe('pause and resume', () => {
  it('a paused queue gives its jobs to no worker until resumed', async () => {
    await setPaused(ctx, ['speech'], true);
    const { id } = await submit('speech', 'hello');
    // A worker asking the queue for its next job, as every worker does, and told there is none.
    const asking = new Worker<GenerationJobData>(queueName('speech'), null, {
      connection: await blockingConnection(),
      prefix,
      autorun: false,
    });
    workers.push(asking);
    expect(await asking.getNextJob('paused-test', { block: false })).toBeUndefined();
    expect(await statusOf(id)).toBe('queued');

    expect(await setPaused(ctx, ['speech'], false)).toEqual([{ kind: 'speech', paused: false }]);
    await startWorker('speech');
    await expect.poll(() => statusOf(id)).toBe('completed');
  });
});

describe('retry-failed', () => {
  it('retries failed generations, charging their owners again; --free does not charge; canceled ones stay', async () => {
    await startWorker('image');
    const charged = await failed('image');
    const canceled = await submit('image', 'x', { delay: 60_000 });
    await ctx.lifecycle.cancel(canceled.id, { by: 'owner', uid: canceled.uid });
    // The cause of the failure is gone: its prompt now succeeds (the stand-in reads it from the record).
    await ctx.database.db.updateTable('generations').set({ prompt: 'ok now' }).where('id', '=', charged.id).execute();

    expect(await retryFailed(ctx, ['image'], { limit: 10, free: false })).toEqual([
      { id: charged.id, kind: 'image', uid: charged.uid, result: 'retried', charged: true },
    ]);
    await expect.poll(() => statusOf(charged.id)).toBe('completed');
    expect(await ctx.lifecycle.find(charged.id)).toMatchObject({ status: 'completed', token: 'spent' });
    expect((await ctx.lifecycle.balance(charged.uid)).tokens.image).toBe(0);
    expect(await statusOf(canceled.id)).toBe('canceled');

    const free = await failed('image');
    expect(await retryFailed(ctx, ['image'], { limit: 10, free: true })).toEqual([
      { id: free.id, kind: 'image', uid: free.uid, result: 'retried', charged: false },
    ]);
    // Its prompt still fails: waived, it ran on the house, and its failure gave back nothing never taken.
    await expect.poll(() => statusOf(free.id)).toBe('failed');
    expect(await ctx.lifecycle.find(free.id)).toMatchObject({ token: 'waived' });
    expect((await ctx.lifecycle.balance(free.uid)).tokens.image).toBe(1);
  });

  it('skips an owner with no token left', async () => {
    const uid = `user-${randomUUID()}`;
    const failedVideo = await failed('video', { uid });
    await submit('video', 'x', { uid, delay: 60_000 });
    expect(await retryFailed(ctx, ['video'], { limit: 5, free: false })).toEqual([
      { id: failedVideo.id, kind: 'video', uid, result: 'skipped: no tokens left', charged: false },
    ]);
    expect(await statusOf(failedVideo.id)).toBe('failed');
  });

  it("charges in the period it runs in: a refilled allowance pays for it, a stale token doesn't", async () => {
    const allowance = DEFAULT_PLAN_RULES.free.allowance.speech;
    // No speech token left, and their period is over: the allowance is theirs again.
    const refilled = `user-${randomUUID()}`;
    const first = await failed('speech', { uid: refilled });
    for (let count = 0; count < allowance; count += 1) await submit('speech', 'kept', { uid: refilled, delay: 60_000 });
    await periodOver(refilled);
    // One speech token left over from a period that is over.
    const stale = `user-${randomUUID()}`;
    const second = await failed('speech', { uid: stale });
    await submit('speech', 'kept', { uid: stale, delay: 60_000 });
    await periodOver(stale);

    expect(await retryFailed(ctx, ['speech'], { limit: 10, free: false })).toEqual([
      { id: first.id, kind: 'speech', uid: refilled, result: 'retried', charged: true },
      { id: second.id, kind: 'speech', uid: stale, result: 'retried', charged: true },
    ]);
    for (const uid of [refilled, stale]) {
      const balance = await ctx.lifecycle.balance(uid);
      // The new period's allowance less the retry's token; the period starts again.
      expect(balance.tokens.speech).toBe(allowance - 1);
      expect(balance.periodStartedAt.getTime()).toBeGreaterThan(Date.now() - DAY_MS);
    }
    // The retry was paid for in the new period: one more submission, then none.
    await submit('speech', 'next', { uid: stale, delay: 60_000 });
    await expect(submit('speech', 'one too many', { uid: stale })).rejects.toThrow('exhausted');
  });

  it('skips an owner past the in-flight cap, and a request beyond what their plan allows now', async () => {
    const busy = `user-${randomUUID()}`;
    const busyFailure = await failed('speech', { uid: busy });
    for (const kind of ['speech', 'speech', 'video'] as const) await submit(kind, 'busy', { uid: busy, delay: 60_000 });
    expect((await ctx.lifecycle.balance(busy)).inFlight).toBe(MAX_IN_FLIGHT);
    const downgraded = `user-${randomUUID()}`;
    await ctx.lifecycle.setPlan(downgraded, 'pro', 'test');
    const tooWide = await failed('image', {
      uid: downgraded,
      request: { ...requests.image('a wide lighthouse'), width: 1536, height: 1536 },
    });
    await ctx.lifecycle.setPlan(downgraded, 'free', 'test');

    // On the house or not, the rules a submission keeps to hold.
    expect(await retryFailed(ctx, ['image', 'speech'], { limit: 10, free: true })).toEqual([
      { id: busyFailure.id, kind: 'speech', uid: busy, result: 'skipped: too many in flight', charged: false },
      {
        id: tooWide.id,
        kind: 'image',
        uid: downgraded,
        result: 'skipped: beyond the plan',
        charged: false,
        detail: 'The Free plan makes images up to 1024×1024 pixels. Upgrade your plan for more.',
      },
    ]);
    expect(await statusOf(busyFailure.id)).toBe('failed');
    expect(await statusOf(tooWide.id)).toBe('failed');
    const { text } = await runCommand(ctx, { name: 'retry-failed', kinds: ['image'], limit: 10, free: false });
    expect(text).toMatch(/skipped: beyond the plan\s+no\s+The Free plan makes images up to 1024×1024 pixels\./);
  });

  it("a retry racing its owner's cancel, 20 times: one outcome each, and the tokens add up", async () => {
    // How long a retry takes here, so each cancel lands before it, during it or after it.
    const probe = await failed('image');
    const startedAt = performance.now();
    await retryFailed(ctx, ['image'], { limit: 1, free: false });
    const retryMs = performance.now() - startedAt;
    await ctx.lifecycle.cancel(probe.id, { by: 'owner', uid: probe.uid });

    const outcomes: string[] = [];
    const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let race = 0; race < 20; race += 1) {
      const { id, uid } = await failed('image');
      // Every other race the cancel is sent first, every other the retry; the second follows within a retry's time.
      const [cancelDelay, retryDelay] = race % 2 === 0 ? [0, Math.random() * retryMs] : [Math.random() * retryMs, 0];
      const [[retried], canceled] = await Promise.all([
        after(retryDelay).then(() => retryFailed(ctx, ['image'], { limit: 1, free: false })),
        after(cancelDelay).then(() => ctx.lifecycle.cancel(id, { by: 'owner', uid })),
      ]);
      // A failed generation cannot be canceled: the cancel wins only once the retry has queued it again.
      expect(retried).toMatchObject({ id, result: 'retried', charged: true });
      const generation = await ctx.lifecycle.find(id);
      const balance = await ctx.lifecycle.balance(uid);
      if (canceled.ok) {
        expect(generation).toMatchObject({ status: 'canceled', token: 'refunded' });
        expect(balance).toMatchObject({ tokens: { image: 1 }, inFlight: 0 });
      } else {
        expect(canceled).toMatchObject({ reason: 'not-allowed', current: { status: 'failed' } });
        expect(generation).toMatchObject({ status: 'queued', token: 'held' });
        expect(balance).toMatchObject({ tokens: { image: 0 }, inFlight: 1 });
      }
      const ledger = await ctx.database.db
        .selectFrom('token_ledger')
        .select('amount')
        .where('uid', '=', uid)
        .where('kind', '=', 'image')
        .execute();
      expect(1 + ledger.reduce((sum, line) => sum + line.amount, 0)).toBe(balance.tokens.image);
      outcomes.push(generation!.status);
      // Done with: the next race's retry sees only its own failure.
      if (generation!.status === 'queued') await ctx.lifecycle.cancel(id, { by: 'owner', uid });
    }
    expect(new Set(outcomes)).toEqual(new Set(['canceled', 'queued']));
  });
});

describe('drain-user', () => {
  it("cancels the user's generations like their own cancels: listed as canceled, refunded unless paid work began", async () => {
    const uid = `user-${randomUUID()}`;
    const heard: string[] = [];
    const subscriber = await blockingConnection();
    subscriber.on('message', (_channel: string, id: string) => heard.push(id));
    await subscriber.subscribe(cancellationChannel(prefix));
    await startWorker('image');
    const active = await submit('image', 'hold', { uid });
    await expect.poll(() => held.has(active.id)).toBe(true);
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
    await expect.poll(() => heard.includes(active.id)).toBe(true);
  });
});

describe('plan', () => {
  it("moves the user's waiting jobs with the record: the job's priority follows the plan", async () => {
    const other = await submit('image', 'not theirs, and first in line');
    const uid = `user-${randomUUID()}`;
    const image = await submit('image', 'waiting', { uid });
    const speech = await submit('speech', 'later', { uid, delay: 60_000 });
    const priorityOf = async (kind: GenerationKind, id: string) => (await ctx.queues[kind].getJob(id))?.priority;
    expect(await priorityOf('image', image.id)).toBe(DEFAULT_PLAN_RULES.free.queuePriority);

    const { text } = await runCommand(ctx, { name: 'plan', uid, plan: 'enterprise', reason: 'contract 7' });
    expect(text).toContain(`user '${uid}' moved from free to enterprise`);
    const top = DEFAULT_PLAN_RULES.enterprise.queuePriority;
    expect(await priorityOf('image', image.id)).toBe(top);
    expect(await priorityOf('speech', speech.id)).toBe(top);
    expect(await priorityOf('image', other.id)).toBe(DEFAULT_PLAN_RULES.free.queuePriority);
    // The record's line agrees with the queue's.
    const line = await ctx.database.db
      .selectFrom('generations')
      .select(['id', 'queue_priority'])
      .where('uid', '=', uid)
      .execute();
    expect(line.map((row) => row.queue_priority)).toEqual([top, top]);
    // So a worker takes theirs first, ahead of the Free job that was waiting before it.
    await startWorker('image');
    await expect.poll(() => statusOf(other.id)).toBe('completed');
    const startedAt = async (id: string) => (await ctx.queues.image.getJob(id))!.processedOn!;
    expect(await startedAt(image.id)).toBeLessThan(await startedAt(other.id));
  });

  it("refuses a closed account's uid", async () => {
    const { uid } = await submit('image', 'mine');
    await new AccountClosure(ctx.database.db).close(uid, null);
    await expect(runCommand(ctx, { name: 'plan', uid, plan: 'pro', reason: 'test' })).rejects.toThrow(NotFoundError);
  });
});

// Each test starts the CLI's production bundle (built for the run by the project's global setup) as a
// process of its own: a hang guard for a loaded host.
describe('the queues CLI process', { timeout: 90_000 }, () => {
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['ops/dist/main.js', ...args], {
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
    expect(GENERATION_KINDS.every((kind) => counts.some((queue) => queue.kind === kind))).toBe(true);
  });

  it('exits 2 with a message for an unknown generation or command', async () => {
    // A command that finds nothing, and arguments that do not parse (each parse error: cli-args.test.ts).
    for (const args of [['job', `image_${'0'.repeat(32)}`], ['frobnicate']]) {
      const failure = await run(...args).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toMatch(/^error: /);
    }
  });
});
