import { PNG } from '@trustnxt/c2pa-ts/asset';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import { ManifestStore } from '@trustnxt/c2pa-ts/manifest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkerHarness, imageRequest, speechRequest } from './support/harness';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const harness = new WorkerHarness();

/** The speech endpoint's tests read as on a day before OpenAI shuts its models down (2027-01-06). */
const BEFORE_SPEECH_ENDPOINT_SHUTDOWN = Date.parse('2027-01-05T12:00:00Z');

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['image', 'speech'] }, { clock: () => BEFORE_SPEECH_ENDPOINT_SHUTDOWN });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

describe('image generation', () => {
  it('stores the PNG of the first artifact and keeps the token', async () => {
    const { job, uid } = await harness.submit('image', imageRequest());
    const { state, generation } = await harness.settled('image', job);
    expect(state).toBe('completed');
    expect(generation.artifact?.mimeType).toBe('image/png');
    expect((await harness.artifactBytes(generation)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect((await harness.balance(uid)).image).toBe(0);
  });

  it('stores the image signed with Content Credentials (the development pair, made at start)', async () => {
    const { job } = await harness.submit('image', imageRequest());
    const { generation } = await harness.settled('image', job);
    // The CAI reader checks signatures in content-credentials.test.ts; here: the stored file carries one.
    const jumbf = new PNG(await harness.artifactBytes(generation)).getManifestJUMBF();
    const manifest = ManifestStore.read(SuperBox.fromBuffer(jumbf as Uint8Array<ArrayBuffer>)).getActiveManifest();
    expect(manifest?.claim?.claimGeneratorName).toBe('MediaGen');
    // What the manifests say, kept with the record for the library (the CAI reader reads the same there).
    expect(generation.artifact?.contentCredentials).toEqual({
      signedBy: 'MediaGen development signer',
      issuer: 'MediaGen',
      signedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      generator: 'MediaGen 1.0.0',
      model: 'sdxl-1.0',
      digitalSourceType: 'trainedAlgorithmicMedia',
      actions: { original: ['c2pa.created'], marked: ['c2pa.opened', 'c2pa.watermarked'] },
    });
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
    const { state, job: done, generation } = await harness.settled('image', job);
    expect(state).toBe('failed');
    expect(done.attemptsMade).toBe(2);
    expect(done.failedReason).toMatch(/^Stability AI error: .+/);
    expect(generation.error?.code).toBe('IMAGE_PROVIDER_ERROR');
    expect((await harness.balance(uid)).image).toBe(1);
  });
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('image requests as Stability takes them', () => {
  it('renders a size SDXL does not take at the nearest one it does, instead of a 400', async () => {
    const { job } = await harness.submit('image', { ...imageRequest(), width: 768, height: 1024 });
    const { state, job: done, generation } = await harness.settled('image', job);
    expect(state, done.failedReason).toBe('completed');
    expect(pngSize(await harness.artifactBytes(generation))).toEqual([896, 1152]);
  });

  it("fails with 'No image was generated' when Stability filters the content, without retrying; the token comes back", async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'content-filtered' });
    const { job, uid } = await harness.submit('image', imageRequest(), { attempts: 3 });
    const { state, job: done, generation } = await harness.settled('image', job);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('No image was generated');
    expect(generation.error?.code).toBe('IMAGE_NOT_GENERATED');
    expect(done.attemptsMade).toBe(1);
    // Issue 36: a filtered image returns its own token (Stability's cost stays in the spend reports, and the
    // plan's daily spend cap bounds what filtered images can cost).
    expect(generation.token).toBe('refunded');
    expect(generation.tokensReturned).toBe(1);
    expect((await harness.balance(uid)).image).toBe(1);
    const { logs } = await harness.queue('image').getJobLogs(job.id!);
    expect(logs.some((line) => /stability text_to_image: content_refused/.test(line))).toBe(true);
  });
});

/** Speech recorded for a `/v1/audio/speech` model (SPEECH_MODEL=tts-1 until its shutdown). */
const endpointSpeech = (input?: string) => ({ ...speechRequest(input), model: 'tts-1' as const });

describe('speech on the speech endpoint', () => {
  it('stores spoken audio bytes with their content type', async () => {
    const { job } = await harness.submit('speech', endpointSpeech());
    const { state, generation } = await harness.settled('speech', job);
    expect(state).toBe('completed');
    expect(generation.artifact?.mimeType).toMatch(/^audio\//);
    const bytes = await harness.artifactBytes(generation);
    const isWav = bytes.subarray(0, 4).toString('latin1') === 'RIFF';
    const isMp3 =
      bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);
    expect(isWav || isMp3).toBe(true);
  });

  it('fails at once with a clear message when the OpenAI account is out of credit, instead of waiting as for a rate limit', async () => {
    harness.simulator.injectFault({ route: 'speech', fault: 'insufficient-quota' });
    const before = harness.simulator.stats().requests.speech;
    const startedAt = Date.now();
    const { job, uid } = await harness.submit('speech', endpointSpeech(), { attempts: 3 });
    const { state, job: done, generation } = await harness.settled('speech', job);
    expect(state).toBe('failed');
    expect(done.failedReason).toMatch(
      /^Failed to generate speech: OpenAI billing refused the call \(HTTP 429 insufficient_quota: /,
    );
    expect(generation.error).toEqual({
      code: 'SPEECH_FAILED',
      message: 'Speech generation is unavailable right now. Your token was returned.',
    });
    expect(done.attemptsMade).toBe(1);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    // The official client's own retries (spec §9: 2), nothing more.
    expect(harness.simulator.stats().requests.speech - before).toBeLessThanOrEqual(3);
    expect((await harness.balance(uid)).speech).toBe(2);
    const { logs } = await harness.queue('speech').getJobLogs(job.id!);
    expect(logs.some((line) => line.includes('queue paused'))).toBe(false);
  });

  it("fails with the provider's message when the request is refused, without retrying, and refunds", async () => {
    // Bypasses the API's schema to reach the provider's own validation: a 4xx is permanent.
    const { job, uid } = await harness.submit(
      'speech',
      { ...endpointSpeech(), voice: 'robot' as never },
      { attempts: 3 },
    );
    const { state, job: done, generation } = await harness.settled('speech', job);
    expect(state).toBe('failed');
    expect(done.attemptsMade).toBe(1);
    expect(done.failedReason).toMatch(/robot/);
    expect(generation.error?.code).toBe('SPEECH_FAILED');
    expect((await harness.balance(uid)).speech).toBe(2);
  });
});
