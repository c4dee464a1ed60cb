import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GenerationJobData } from '@mediagen/core';
import { WorkerHarness, videoRequest } from './support/harness';

const harness = new WorkerHarness();

beforeAll(() => harness.start({ videoQueueingMs: 300, videoProcessingMs: 600 }));
afterAll(() => harness.stop());

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('a job taken over by another worker resumes polling the same provider task', async () => {
  const first = await harness.startWorkers({ kinds: ['video'] });
  const { job } = await harness.submit('video', videoRequest());
  const taskId = await waitFor(async () => {
    const fresh = await harness.queue('video').getJob(job.id!);
    return (fresh?.data as GenerationJobData<'video'> | undefined)?.video?.taskId;
  });
  await first.close(1000);

  const second = await harness.startWorkers({ kinds: ['video'] });
  const { state, job: done } = await harness.settled('video', job);
  await second.close(1000);
  expect(state).toBe('completed');
  expect((done.data as GenerationJobData<'video'>).video?.taskId).toBe(taskId);
  expect(harness.simulator.stats().videoTasksCreated).toBe(1);
});

it("gives up after the configured number of polls with 'Video generation timed out - please try again'", async () => {
  await harness.startWorkers({ kinds: ['video'], videoPolling: { intervalMs: 20, maxPolls: 3 } });
  const { job, uid } = await harness.submit('video', videoRequest());
  const { state, job: done } = await harness.settled('video', job);
  expect(state).toBe('failed');
  expect(done.failedReason).toBe('Video generation timed out - please try again');
  expect((await harness.ledger.balance(uid)).tokens.video).toBe(1);
});
