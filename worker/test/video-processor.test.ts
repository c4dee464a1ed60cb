import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkerHarness, videoRequest } from './support/harness';

const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['video'] });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

async function tokensLeft(uid: string) {
  return (await harness.balance(uid)).video;
}

describe('video generation', () => {
  it('starts one task, polls it to Success and stores a playable MP4 with rising progress', async () => {
    const tasksBefore = harness.simulator.stats().videoTasksCreated;
    const progress = await harness.watchProgress();
    const { job, uid } = await harness.submit('video', videoRequest());
    const { state, job: done, generation } = await harness.settled('video', job);
    const seen = progress.of(job.id!);
    await progress.stop();

    expect(state).toBe('completed');
    expect(harness.simulator.stats().videoTasksCreated - tasksBefore).toBe(1);
    expect(generation.artifact?.mimeType).toBe('video/mp4');
    const bytes = await harness.artifactBytes(generation);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // MP4 is not signed yet: it carries plain AI metadata, and the record no Content Credentials.
    expect(generation.artifact?.contentCredentials).toBeUndefined();
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Math.max(...seen)).toBeLessThanOrEqual(99);
    // The task id is in the record (and in the job, written first).
    expect(generation.providerTaskId).toMatch(/.+/);
    expect(done.data.taskId).toBe(generation.providerTaskId);
    // A completed generation keeps its token.
    expect(await tokensLeft(uid)).toBe(0);
  });

  it("fails with 'Video generation failed on server' when the task reports Fail; the task was accepted, so spent", async () => {
    harness.simulator.injectFault({ route: 'video.query', fault: 'fail-status' });
    const { job, uid } = await harness.submit('video', videoRequest());
    const { state, job: done, generation } = await harness.settled('video', job);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Video generation failed on server');
    expect(generation.error).toEqual({ code: 'VIDEO_FAILED_ON_SERVER', message: 'Video generation failed on server' });
    expect(generation.token).toBe('spent');
    expect(await tokensLeft(uid)).toBe(0);
  });

  it("fails with 'Unexpected status: X' for a status it does not know", async () => {
    harness.simulator.injectFault({ route: 'video.query', fault: 'unknown-status', status: 'Melted' });
    const { job } = await harness.submit('video', videoRequest());
    const { state, job: done } = await harness.settled('video', job);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Unexpected status: Melted');
  });

  it('keeps polling through HTTP 5xx and dropped connections, then completes with a single task', async () => {
    harness.simulator.injectFault({ route: 'video.query', fault: 'http500', times: 2 });
    harness.simulator.injectFault({ route: 'video.query', fault: 'drop', times: 1 });
    const tasksBefore = harness.simulator.stats().videoTasksCreated;
    const queriesBefore = harness.simulator.stats().requests['video.query'];
    const { job } = await harness.submit('video', videoRequest());
    const { state } = await harness.settled('video', job);
    expect(state).toBe('completed');
    expect(harness.simulator.stats().videoTasksCreated - tasksBefore).toBe(1);
    expect(harness.simulator.stats().requests['video.query'] - queriesBefore).toBeGreaterThanOrEqual(4);
  });

  it('retries a failed start and fails with the catalogue message when every attempt fails', async () => {
    harness.simulator.injectFault({ route: 'video.create', fault: 'http500' });
    const { job, uid } = await harness.submit('video', videoRequest(), { attempts: 2 });
    const { state, job: done } = await harness.settled('video', job);
    expect(state).toBe('failed');
    expect(done.attemptsMade).toBe(2);
    expect(done.failedReason).toMatch(/^Failed to start video generation: /);
    expect(await tokensLeft(uid)).toBe(1);
  });

  it('polls again after a status answer that does not parse, like after a network error, and completes', async () => {
    harness.simulator.injectFault({ route: 'video.query', fault: 'malformed', times: 2 });
    const tasksBefore = harness.simulator.stats().videoTasksCreated;
    const { job } = await harness.submit('video', videoRequest(), { attempts: 1 });
    const { state, job: done } = await harness.settled('video', job);
    expect(state).toBe('completed');
    expect(done.attemptsMade).toBe(1);
    expect(harness.simulator.stats().videoTasksCreated - tasksBefore).toBe(1);
  });
});
