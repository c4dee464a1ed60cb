import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { WorkerHarness, videoRequest } from './support/harness';

const harness = new WorkerHarness();

beforeAll(() => harness.start({ videoQueueingMs: 300, videoProcessingMs: 600 }));
afterAll(() => harness.stop());

it('a job taken over by another worker resumes polling the same provider task', async () => {
  const first = await harness.startWorkers({ kinds: ['video'] });
  const { job } = await harness.submit('video', videoRequest());
  const taskId = await vi.waitUntil(async () => (await harness.lifecycle.find(job.id!))?.providerTaskId ?? undefined, {
    timeout: 10_000,
    interval: 25,
  });
  await first.close(1000);

  const second = await harness.startWorkers({ kinds: ['video'] });
  const { state, job: done, generation } = await harness.settled('video', job);
  await second.close(1000);
  expect(state).toBe('completed');
  expect(generation.providerTaskId).toBe(taskId);
  expect(done.data.taskId).toBe(taskId);
  expect(harness.simulator.stats().videoTasksCreated).toBe(1);
});

it("gives up after the configured number of polls with 'Video generation timed out - please try again'", async () => {
  await harness.startWorkers({ kinds: ['video'], videoPolling: { intervalMs: 20, maxPolls: 3 } });
  const { job, uid } = await harness.submit('video', videoRequest());
  const { state, job: done, generation } = await harness.settled('video', job);
  expect(state).toBe('failed');
  expect(done.failedReason).toBe('Video generation timed out - please try again');
  expect(generation.token).toBe('spent');
  expect((await harness.balance(uid)).video).toBe(0);
});
