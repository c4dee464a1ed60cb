import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { signalCancel } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import { WorkerHarness, imageRequest, speechRequest, videoRequest } from './support/harness';

describe('cancel', () => {
  const harness = new WorkerHarness();
  beforeAll(async () => {
    await harness.start();
    await harness.startWorkers({ kinds: ['image', 'speech'] });
  });
  afterAll(() => harness.stop());
  beforeEach(() => harness.simulator.clearFaults());

  it.each([
    ['image', 'image', () => imageRequest()],
    ['speech', 'realtime.response', () => speechRequest()],
  ] as const)(
    'aborts an in-flight %s call at once; the provider had the request, so the token stays spent',
    async (kind, route, request) => {
      // The provider never answers: only the abort can end this call.
      harness.simulator.injectFault({ route, fault: 'hang', times: 1 });
      const before = harness.simulator.stats().requests[route];
      const { job, uid, id } = await harness.submit(kind as GenerationKind, request() as never);
      await vi.waitUntil(() => harness.simulator.stats().requests[route] > before, { timeout: 5000, interval: 25 });

      expect(await harness.lifecycle.cancel(id, { by: 'owner', uid })).toMatchObject({
        ok: true,
        generation: { status: 'canceled', token: 'spent' },
      });
      await signalCancel(harness.redis, harness.prefix, id);
      // The provider never answers, so only the abort ends the call; the job ends quietly (the record
      // decided): no retry, no second call.
      await job.waitUntilFinished(harness.queueEvents(kind), 5000);
      const done = (await harness.queue(kind).getJob(id))!;
      expect(await done.getState()).toBe('completed');
      expect(done.attemptsMade).toBe(1);
      expect(harness.simulator.stats().requests[route]).toBe(before + 1);
      const full = kind === 'speech' ? 2 : 1;
      expect((await harness.balance(uid))[kind]).toBe(full - 1);
      const { logs } = await harness.queue(kind).getJobLogs(job.id!);
      expect(logs.some((line) => /: aborted in \d+ ms/.test(line))).toBe(true);
    },
  );
});

describe('job deadline', () => {
  const harness = new WorkerHarness();
  beforeAll(async () => {
    await harness.start({ videoQueueingMs: 100, videoProcessingMs: 60_000 });
    await harness.startWorkers({ jobDeadlineMs: 800 });
  });
  afterAll(() => harness.stop());

  it('aborts a call still running at the deadline and fails without a retry; the request was sent, so spent', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'hang', times: 1 });
    const { job, uid } = await harness.submit('image', imageRequest(), { attempts: 3 });
    const { state, job: done, generation } = await harness.settled('image', job, 5000);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Generation took too long - please try again');
    expect(generation.error?.code).toBe('IMAGE_FAILED');
    expect(done.attemptsMade).toBe(1);
    const ranMs = generation.finishedAt!.getTime() - generation.startedAt!.getTime();
    // The provider never answers: the deadline is what ended it.
    expect(ranMs).toBeGreaterThanOrEqual(800);
    expect(generation.token).toBe('spent');
    expect((await harness.balance(uid)).image).toBe(0);
  });

  it('a run taken up past the deadline ends before its paid call: nothing was sent, so the token comes back', async () => {
    // An earlier run started the generation and died before its call; the job comes back too late.
    await harness.queue('image').pause();
    try {
      const before = harness.simulator.stats().requests.image;
      const { job, uid, id } = await harness.submit('image', imageRequest(), { attempts: 3 });
      expect(await harness.lifecycle.start(id)).toMatchObject({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 900));
      await harness.queue('image').resume();
      const { state, generation } = await harness.settled('image', job, 5000);
      expect(state).toBe('failed');
      expect(generation).toMatchObject({ status: 'failed', token: 'refunded', paidCalls: 0 });
      expect(harness.simulator.stats().requests.image).toBe(before);
      expect((await harness.balance(uid)).image).toBe(1);
    } finally {
      await harness.queue('image').resume();
    }
  });

  it("ends a video still rendering at the deadline with 'Video generation timed out', across its polls", async () => {
    const { job, uid } = await harness.submit('video', videoRequest());
    const { state, job: done, generation } = await harness.settled('video', job, 5000);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Video generation timed out - please try again');
    expect(done.data.polls).toBeGreaterThan(3);
    // MiniMax accepted the task: paid work.
    expect(generation.token).toBe('spent');
    expect((await harness.balance(uid)).video).toBe(0);
    const metric = await harness.metricsOf(0).getSingleMetric('mediagen_worker_job_deadline_exceeded_total')!.get();
    expect(metric.values.find((value) => value.labels.kind === 'video')?.value).toBe(1);
  });
});

describe("cancel while a call waits for the provider's turn", () => {
  // One image call per 3 s: a second image waits for its turn, well inside the 5 s a run may wait.
  const harness = new WorkerHarness();
  beforeAll(async () => {
    await harness.start({}, { STABILITY_RATE_LIMIT: '1/3000/30000', PROVIDER_RATE_MARGIN_MS: '0' });
    await harness.startWorkers({ kinds: ['image'] });
  });
  afterAll(() => harness.stop());

  it('gives the token back: the call was never sent, nor recorded', async () => {
    const first = await harness.submit('image', imageRequest());
    expect((await harness.settled('image', first.job, 5000)).state).toBe('completed');
    const before = harness.simulator.stats().requests.image;

    const { job, uid, id } = await harness.submit('image', imageRequest());
    await vi.waitUntil(async () => (await job.getState()) === 'active', { timeout: 2000, interval: 20 });
    // Its turn is seconds away: the generation is still queued for its owner meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'queued', paidCalls: 0 });
    expect(await harness.lifecycle.cancel(id, { by: 'owner', uid })).toMatchObject({
      ok: true,
      generation: { status: 'canceled', token: 'refunded' },
    });
    await signalCancel(harness.redis, harness.prefix, id);

    await job.waitUntilFinished(harness.queueEvents('image'), 6000).catch(() => undefined);
    expect(await harness.lifecycle.find(id)).toMatchObject({ status: 'canceled', token: 'refunded', paidCalls: 0 });
    expect(harness.simulator.stats().requests.image).toBe(before);
    expect((await harness.balance(uid)).image).toBe(1);
  });
});
