import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenerationJobResult } from '@mediagen/core';
import { WorkerHarness, imageRequest, speechRequest } from './support/harness';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['image', 'speech'] });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

async function artifactBytes(result: GenerationJobResult): Promise<Buffer> {
  return readFile(join(harness.config.artifactsDir, result.artifactKey));
}

describe('image generation', () => {
  it('stores the PNG of the first artifact and keeps the token', async () => {
    const { job, uid } = await harness.submit('image', imageRequest());
    const { state, job: done } = await harness.settled('image', job);
    expect(state).toBe('completed');
    const result = done.returnvalue as GenerationJobResult;
    expect(result.mimeType).toBe('image/png');
    expect((await artifactBytes(result)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect((await harness.ledger.balance(uid)).tokens.image).toBe(0);
  });

  it('retries a provider 500 and completes', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'http500', times: 1 });
    const { job } = await harness.submit('image', imageRequest());
    const { state, job: done } = await harness.settled('image', job);
    expect(state).toBe('completed');
    expect(done.attemptsMade).toBe(2);
  });

  it("fails with 'Stability AI error: ' and the provider message after the retries, and refunds", async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'http500' });
    const { job, uid } = await harness.submit('image', imageRequest(), { attempts: 2 });
    const { state, job: done } = await harness.settled('image', job);
    expect(state).toBe('failed');
    expect(done.attemptsMade).toBe(2);
    expect(done.failedReason).toMatch(/^Stability AI error: .+/);
    expect(done.data.error?.code).toBe('IMAGE_PROVIDER_ERROR');
    expect((await harness.ledger.balance(uid)).tokens.image).toBe(1);
  });
});

describe('speech generation', () => {
  it('stores spoken audio bytes with their content type', async () => {
    const { job } = await harness.submit('speech', speechRequest());
    const { state, job: done } = await harness.settled('speech', job);
    expect(state).toBe('completed');
    const result = done.returnvalue as GenerationJobResult;
    expect(result.mimeType).toMatch(/^audio\//);
    const bytes = await artifactBytes(result);
    const isWav = bytes.subarray(0, 4).toString('latin1') === 'RIFF';
    const isMp3 =
      bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);
    expect(isWav || isMp3).toBe(true);
  });

  it("fails with the provider's message when the request is refused, without retrying, and refunds", async () => {
    // Bypasses the API's schema to reach the provider's own validation: a 4xx is permanent.
    const { job, uid } = await harness.submit(
      'speech',
      { ...speechRequest(), voice: 'robot' as never },
      { attempts: 3 },
    );
    const { state, job: done } = await harness.settled('speech', job);
    expect(state).toBe('failed');
    expect(done.attemptsMade).toBe(1);
    expect(done.failedReason).toMatch(/robot/);
    expect(done.data.error?.code).toBe('SPEECH_FAILED');
    expect((await harness.ledger.balance(uid)).tokens.speech).toBe(2);
  });
});
