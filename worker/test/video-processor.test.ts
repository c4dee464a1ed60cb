import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenerationJobData, GenerationJobResult } from '@mediagen/core';
import { WorkerHarness, videoRequest } from './support/harness';

const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['video'] });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

async function tokensLeft(uid: string) {
  return (await harness.ledger.balance(uid)).tokens.video;
}

describe('video generation', () => {
  it('starts one task, polls it to Success and stores a playable MP4 with rising progress', async () => {
    const tasksBefore = harness.simulator.stats().videoTasksCreated;
    const progress: number[] = [];
    const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
      if (typeof data === 'number' && jobId) progress.push(data);
    };
    harness.queueEvents('video').on('progress', onProgress);
    const { job, uid } = await harness.submit('video', videoRequest());
    const { state, job: done } = await harness.settled('video', job);
    harness.queueEvents('video').off('progress', onProgress);

    expect(state).toBe('completed');
    expect(harness.simulator.stats().videoTasksCreated - tasksBefore).toBe(1);
    const result = done.returnvalue as GenerationJobResult;
    expect(result.mimeType).toBe('video/mp4');
    const bytes = await readFile(join(harness.config.artifactsDir, result.artifactKey));
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(Math.max(...progress)).toBeLessThanOrEqual(99);
    expect((done.data as GenerationJobData<'video'>).video?.taskId).toMatch(/.+/);
    // A completed generation keeps its token.
    expect(await tokensLeft(uid)).toBe(0);
  });

  it("fails with 'Video generation failed on server' when the task reports Fail, and refunds the token", async () => {
    harness.simulator.injectFault({ route: 'video.query', fault: 'fail-status' });
    const { job, uid } = await harness.submit('video', videoRequest());
    const { state, job: done } = await harness.settled('video', job);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Video generation failed on server');
    expect(done.data.error).toEqual({ code: 'VIDEO_FAILED_ON_SERVER', message: 'Video generation failed on server' });
    expect(await tokensLeft(uid)).toBe(1);
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

  it("fails with 'Invalid response from video generation service' when the status body is malformed", async () => {
    harness.simulator.injectFault({ route: 'video.query', fault: 'malformed' });
    const { job } = await harness.submit('video', videoRequest());
    const { state, job: done } = await harness.settled('video', job);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('Invalid response from video generation service');
  });
});
