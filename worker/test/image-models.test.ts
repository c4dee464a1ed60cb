import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkerHarness, imageRequest } from './support/harness';

const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['image'] });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

// 4K images are 16-megapixel PNGs, encoded, marked and stored on a machine that may be shared.
describe('image models', { timeout: 120_000 }, () => {
  it('sends a Core request to v2beta generate/core with its aspect ratio and negative prompt', async () => {
    const before = harness.simulator.stableImageRequests().length;
    const { job } = await harness.submit('image', {
      ...imageRequest('a lighthouse at dusk'),
      model: 'stable-image-core',
      aspectRatio: '16:9',
      negativePrompt: 'fog, people',
    });
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    const sent = harness.simulator.stableImageRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      endpoint: 'generate/core',
      aspect_ratio: '16:9',
      style_preset: 'photographic',
      seed: 42,
      output_format: 'png',
      accept: 'image/*',
    });
    expect(sent[0]!.prompt).toMatch(/^a lighthouse at dusk, highly detailed/);
    expect(sent[0]!.negative_prompt).toMatch(/^fog, people, blurry/);
    const { width, height } = await sharp(await harness.artifactBytes(generation)).metadata();
    expect(width! / height!).toBeCloseTo(16 / 9, 1);
    // Core's list price: 3 credits.
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeCloseTo(0.03, 6);
  });

  it('sends an SD 3.5 model to generate/sd3 by its model field', async () => {
    const before = harness.simulator.stableImageRequests().length;
    const { job } = await harness.submit('image', {
      ...imageRequest(),
      model: 'sd3.5-large-turbo',
      aspectRatio: '2:3',
    });
    const { state, job: done } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    const [sent] = harness.simulator.stableImageRequests().slice(before);
    expect(sent).toMatchObject({ endpoint: 'generate/sd3', model: 'sd3.5-large-turbo', aspect_ratio: '2:3' });
    // The turbo model takes no negative prompt, and the SD3 endpoint no style preset.
    expect(sent).not.toHaveProperty('negative_prompt');
    expect(sent).not.toHaveProperty('style_preset');
  });

  it('makes a 4K Ultra image in two paid calls, generate then upscale, and stores a 4K-class PNG', async () => {
    const before = harness.simulator.stableImageRequests().length;
    const { job, uid } = await harness.submit('image', {
      ...imageRequest(),
      model: 'stable-image-ultra',
      resolution: '4k',
    });
    const { state, job: done, generation } = await harness.settled('image', job, 110_000);
    expect(state, done.failedReason).toBe('completed');
    const sent = harness.simulator.stableImageRequests().slice(before);
    expect(sent.map((request) => request.endpoint)).toEqual(['generate/ultra', 'upscale/fast']);
    expect(sent[1]!.image).toEqual({ width: 1024, height: 1024 });
    const { width, height } = await sharp(await harness.artifactBytes(generation)).metadata();
    expect([width, height]).toEqual([4096, 4096]);
    expect(generation.paidCalls).toBe(2);
    expect(generation.token).toBe('spent');
    expect((await harness.balance(uid)).image).toBe(0);
    // Ultra 8 credits and the upscale 2, each recorded as its call was accepted.
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeCloseTo(0.1, 6);
    const { logs } = await harness.queue('image').getJobLogs(job.id!);
    expect(logs.some((line) => /stability image_upscale: ok/.test(line))).toBe(true);
  });

  it('ends a filtered v2beta image as the v1 path does: no image, no retry, the token back', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'content-filtered' });
    const { job } = await harness.submit('image', { ...imageRequest(), model: 'stable-image-core' }, { attempts: 3 });
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('No image was generated');
    expect(done.attemptsMade).toBe(1);
    expect(generation.token).toBe('refunded');
  });

  it('keeps the token spent when the upscale fails after a paid generation, giving the refused upscale back', async () => {
    harness.simulator.injectFault({ route: 'upscale', fault: 'http500' });
    const { job, uid } = await harness.submit(
      'image',
      { ...imageRequest(), model: 'stable-image-ultra', resolution: '4k' },
      { attempts: 1 },
    );
    const { state, generation } = await harness.settled('image', job, 60_000);
    expect(state).toBe('failed');
    expect(generation.error?.code).toBe('IMAGE_PROVIDER_ERROR');
    // The generate call did paid work: the token stays spent, the refused upscale is given back.
    expect(generation.paidCalls).toBe(1);
    expect(generation.token).toBe('spent');
    expect((await harness.balance(uid)).image).toBe(0);
  });

  it('retries a 4K image whose upscale the provider refused once: its second run pays for the picture again and completes', async () => {
    harness.simulator.injectFault({ route: 'upscale', fault: 'http500', times: 1 });
    const { job, uid } = await harness.submit(
      'image',
      { ...imageRequest(), model: 'stable-image-ultra', resolution: '4k' },
      { attempts: 3 },
    );
    const { state, generation } = await harness.settled('image', job, 60_000);
    expect(state).toBe('completed');
    // Two pictures and one upscale kept: the refused upscale was given back. One token for the generation.
    expect(generation.paidCalls).toBe(3);
    expect(generation.token).toBe('spent');
    expect((await harness.balance(uid)).image).toBe(0);
  });

  it('still sends a request without a model (Free, and everything recorded before models) to v1 SDXL', async () => {
    const before = harness.simulator.stableImageRequests().length;
    const v1Before = harness.simulator.stats().requests.image;
    const { job } = await harness.submit('image', imageRequest());
    const { state } = await harness.settled('image', job, 60_000);
    expect(state).toBe('completed');
    expect(harness.simulator.stableImageRequests().length).toBe(before);
    expect(harness.simulator.stats().requests.image).toBe(v1Before + 1);
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeCloseTo(0.012, 6);
  });
});
