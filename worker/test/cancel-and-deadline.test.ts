import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GenerationKind } from '@mediagen/shared';
import { WorkerHarness, imageRequest, speechRequest, videoRequest, waitFor } from './support/harness';

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
    ['speech', 'speech', () => speechRequest()],
  ] as const)(
    'aborts an in-flight %s call and fails the job CANCELED at once, refunded',
    async (kind, route, request) => {
      // The provider never answers: only the abort can end this call.
      harness.simulator.injectFault({ route, fault: 'hang', times: 1 });
      const before = harness.simulator.stats().requests[route];
      const { job, uid } = await harness.submit(kind as GenerationKind, request() as never);
      await waitFor(() => harness.simulator.stats().requests[route] > before, 5000, 'the provider call');

      const canceledAt = Date.now();
      expect(await harness.cancellations.cancel(job.id!)).toBe(true);
      const { state, job: done } = await harness.settled(kind, job, 5000);
      expect(state).toBe('failed');
      expect(Date.now() - canceledAt).toBeLessThan(1000);
      expect(done.data.error?.code).toBe('CANCELED');
      expect(done.attemptsMade).toBe(1);
      expect(harness.simulator.stats().requests[route]).toBe(before + 1);
      const full = kind === 'speech' ? 2 : 1;
      expect((await harness.ledger.balance(uid)).tokens[kind]).toBe(full);
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

  it('aborts a call still running at the deadline and fails without a retry, refunded', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'hang', times: 1 });
    const { job, uid } = await harness.submit('image', imageRequest(), { attempts: 3 });
    const { state, job: done } = await harness.settled('image', job, 5000);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Generation took too long - please try again');
    expect(done.data.error?.code).toBe('IMAGE_FAILED');
    expect(done.attemptsMade).toBe(1);
    expect(done.finishedOn! - done.data.startedAt!).toBeGreaterThanOrEqual(800);
    expect(done.finishedOn! - done.data.startedAt!).toBeLessThan(2000);
    expect((await harness.ledger.balance(uid)).tokens.image).toBe(1);
  });

  it("ends a video still rendering at the deadline with 'Video generation timed out', across its polls", async () => {
    const { job, uid } = await harness.submit('video', videoRequest());
    const { state, job: done } = await harness.settled('video', job, 5000);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Video generation timed out - please try again');
    expect(done.data.video?.polls).toBeGreaterThan(3);
    expect((await harness.ledger.balance(uid)).tokens.video).toBe(1);
    const metric = await harness.metricsOf(0).getSingleMetric('mediagen_worker_job_deadline_exceeded_total')!.get();
    expect(metric.values.find((value) => value.labels.kind === 'video')?.value).toBe(1);
  });
});
