import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isMissingOutput, type GenerationRecord, type RequestByKind, type StoredOutput } from '@mediagen/core';
import { DEFAULT_PLAN_RULES, type PlanId } from '@mediagen/shared';
import { WorkerHarness, imageRequest } from './support/harness';

const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['image'] });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

/** A set submitted by a user of `plan`, as the API would after its plan check. */
async function submitSet(plan: PlanId, request: RequestByKind['image'], attempts = 3, backoffMs?: number) {
  const uid = `user-${crypto.randomUUID()}`;
  await harness.lifecycle.setPlan(uid, plan, 'image set test');
  return harness.submit('image', request, { uid, attempts, ...(backoffMs === undefined ? {} : { backoffMs }) });
}

const stored = (generation: GenerationRecord) =>
  generation.outputs.filter((output): output is StoredOutput => !isMissingOutput(output));

/**
 * The user's image balance is the plan's allowance plus every charge, refund and spend line of their images
 * (charge −N, refund +the tokens given back, spend 0): short by exactly the set's images spent.
 */
async function expectLedgerAddsUp(uid: string, plan: PlanId, generation: GenerationRecord, spent: number) {
  const lines = await harness.records.db
    .selectFrom('token_ledger')
    .select(['amount'])
    .where('uid', '=', uid)
    .where('kind', '=', 'image')
    .where('movement', 'in', ['charge', 'refund', 'spend'])
    .execute();
  const moved = lines.reduce((sum, line) => sum + line.amount, 0);
  const balance = (await harness.balance(uid)).image;
  expect(balance).toBe(DEFAULT_PLAN_RULES[plan].allowance.image + moved);
  expect(balance).toBe(DEFAULT_PLAN_RULES[plan].allowance.image - spent);
  expect(generation.tokenCount - generation.tokensReturned).toBe(spent);
}

const generateCalls = (before: number) =>
  harness.simulator
    .stableImageRequests()
    .slice(before)
    .filter((request) => request.endpoint.startsWith('generate/'))
    .map((request) => request.seed);

describe('image sets', { timeout: 120_000 }, () => {
  it('makes a v1 set in one call of `samples`, keeps every image with its seed and spends a token each', async () => {
    const before = harness.simulator.imageRequests().length;
    const { job, uid } = await submitSet('pro', { ...imageRequest(), model: 'sdxl-1.0', samples: 3 });
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    const sent = harness.simulator.imageRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ samples: 3, seed: 42 });
    expect(generation.outputs.map((output) => output.seed)).toEqual([42, 43, 44]);
    const files = stored(generation);
    expect(files).toHaveLength(3);
    expect(new Set(files.map((file) => file.key)).size).toBe(3);
    expect(files.every((file) => file.markedKey !== null)).toBe(true);
    // Each image keeps what its own manifests say; the first one's is the record's first file's too.
    expect(files.map((file) => file.contentCredentials?.model)).toEqual(['sdxl-1.0', 'sdxl-1.0', 'sdxl-1.0']);
    expect(generation.artifact?.contentCredentials).toEqual(files[0]!.contentCredentials);
    for (const file of files) {
      const bytes = await harness.artifactBytes({ ...generation, artifact: file });
      expect((await sharp(bytes).metadata()).format).toBe('png');
    }
    expect(generation).toMatchObject({ token: 'spent', tokenCount: 3, tokensReturned: 0, paidCalls: 1 });
    expect((await harness.balance(uid)).image).toBe(DEFAULT_PLAN_RULES.pro.allowance.image - 3);
    expect(await harness.ledgerOf(job.id!)).toEqual([
      { movement: 'charge', amount: -3 },
      { movement: 'spend', amount: 0 },
    ]);
    // One v1 call bills every sample.
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeGreaterThan(0.02);
  });

  it('gives back exactly the token of the one image of four Stability filtered, and spends the other three', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'content-filtered', samples: [1] });
    const { job, uid } = await submitSet('pro', { ...imageRequest(), model: 'sdxl-1.0', samples: 4 });
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    expect(generation.outputs.map((output) => isMissingOutput(output))).toEqual([false, true, false, false]);
    expect(stored(generation)).toHaveLength(3);
    expect(generation).toMatchObject({ token: 'spent', tokenCount: 4, tokensReturned: 1 });
    expect((await harness.balance(uid)).image).toBe(DEFAULT_PLAN_RULES.pro.allowance.image - 3);
    expect(await harness.ledgerOf(job.id!)).toEqual([
      { movement: 'charge', amount: -4 },
      { movement: 'refund', amount: 1 },
      { movement: 'spend', amount: 0 },
    ]);
  });

  it('makes a v2beta set in one paid call per image, each with the next seed, and filters one on its own', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'content-filtered', times: 1 });
    const before = harness.simulator.stableImageRequests().length;
    const { job, uid } = await submitSet('pro', {
      ...imageRequest(),
      model: 'stable-image-core',
      aspectRatio: '16:9',
      samples: 3,
    });
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    const sent = harness.simulator.stableImageRequests().slice(before);
    expect(sent.map((request) => [request.endpoint, request.seed])).toEqual([
      ['generate/core', 42],
      ['generate/core', 43],
      ['generate/core', 44],
    ]);
    expect(generation.outputs.map((output) => isMissingOutput(output))).toEqual([true, false, false]);
    expect(generation).toMatchObject({ paidCalls: 3, tokenCount: 3, tokensReturned: 1, token: 'spent' });
    expect((await harness.balance(uid)).image).toBe(DEFAULT_PLAN_RULES.pro.allowance.image - 2);
    for (const file of stored(generation)) {
      const { width, height } = await sharp(await harness.artifactBytes({ ...generation, artifact: file })).metadata();
      expect(width! / height!).toBeCloseTo(16 / 9, 1);
    }
    // Core's 3 credits a call, each of the three priced as Stability made it.
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeCloseTo(0.09, 6);
  });

  it('fails a set whose every image was filtered with the filtered message, and gives every token back', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'content-filtered' });
    const { job, uid } = await submitSet('pro', { ...imageRequest(), model: 'stable-image-core', samples: 2 });
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state).toBe('failed');
    expect(done.failedReason).toBe('No image was generated');
    expect(done.attemptsMade).toBe(1);
    expect(generation).toMatchObject({ token: 'refunded', tokenCount: 2, tokensReturned: 2, outputs: [] });
    expect((await harness.balance(uid)).image).toBe(DEFAULT_PLAN_RULES.pro.allowance.image);
  });

  it('makes a 4K set with one upscale per image, within a paid-call limit that grows with the set', async () => {
    // The first upscale is refused once: the retry pays for the first picture again (an image is kept once
    // upscaled and stored), within 2 × (2 + 2) calls.
    harness.simulator.injectFault({ route: 'upscale', fault: 'http500', times: 1 });
    const before = harness.simulator.stableImageRequests().length;
    const { job, uid } = await submitSet('enterprise', {
      ...imageRequest(),
      model: 'stable-image-ultra',
      resolution: '4k',
      samples: 2,
    });
    const { state, job: done, generation } = await harness.settled('image', job, 110_000);
    expect(state, done.failedReason).toBe('completed');
    const sent = harness.simulator.stableImageRequests().slice(before);
    // The refused upscale never reached the request log (the fault answered it).
    expect(sent.map((request) => request.endpoint)).toEqual([
      'generate/ultra',
      'generate/ultra',
      'upscale/fast',
      'generate/ultra',
      'upscale/fast',
    ]);
    // Three pictures and two upscales kept: the refused upscale was given back.
    expect(generation.paidCalls).toBe(5);
    const files = stored(generation);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const { width } = await sharp(await harness.artifactBytes({ ...generation, artifact: file })).metadata();
      expect(width).toBe(4096);
    }
    expect(generation).toMatchObject({ token: 'spent', tokenCount: 2, tokensReturned: 0 });
    expect((await harness.balance(uid)).image).toBe(DEFAULT_PLAN_RULES.enterprise.allowance.image - 2);
  });

  it('completes a v2beta set of 4 whose third call fails on the last attempt with the two images made, two tokens back', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'http500', after: 2, times: 1 });
    const before = harness.simulator.stableImageRequests().length;
    const { job, uid } = await submitSet('pro', { ...imageRequest(), model: 'stable-image-core', samples: 4 }, 1);
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    // Images 1 and 2 made; the third call refused (the fault answered it, so it is not in the log); the set
    // stops there: image 4 is never asked for.
    expect(generateCalls(before)).toEqual([42, 43]);
    expect(generation.outputs).toEqual([
      expect.objectContaining({ seed: 42, mimeType: 'image/png' }),
      expect.objectContaining({ seed: 43, mimeType: 'image/png' }),
      { missing: 'failed', seed: 44 },
      { missing: 'failed', seed: 45 },
    ]);
    expect(stored(generation)).toHaveLength(2);
    for (const file of stored(generation)) {
      expect((await sharp(await harness.artifactBytes({ ...generation, artifact: file })).metadata()).format).toBe(
        'png',
      );
    }
    // Two calls kept, the refused one given back.
    expect(generation).toMatchObject({ token: 'spent', tokenCount: 4, tokensReturned: 2, paidCalls: 2, error: null });
    expect(await harness.ledgerOf(job.id!)).toEqual([
      { movement: 'charge', amount: -4 },
      { movement: 'refund', amount: 2 },
      { movement: 'spend', amount: 0 },
    ]);
    await expectLedgerAddsUp(uid, 'pro', generation, 2);
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeCloseTo(0.06, 6);
  });

  it('keeps the images made across attempts: the retry asks only for the image that failed, and completes without it when it fails again', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'http500', after: 2, times: 2 });
    const before = harness.simulator.stableImageRequests().length;
    const { job, uid } = await submitSet('pro', { ...imageRequest(), model: 'stable-image-core', samples: 4 }, 2);
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    expect(done.attemptsMade).toBe(2);
    expect(generateCalls(before)).toEqual([42, 43]);
    expect(generation.outputs.map((output) => ('missing' in output ? output.missing : 'made'))).toEqual([
      'made',
      'made',
      'failed',
      'failed',
    ]);
    expect(generation).toMatchObject({ token: 'spent', tokenCount: 4, tokensReturned: 2, paidCalls: 2 });
    await expectLedgerAddsUp(uid, 'pro', generation, 2);
  });

  it('retries a v2beta set of 3 after a 500 on its second call without paying again for the first image', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'http500', after: 1, times: 1 });
    const before = harness.simulator.stableImageRequests().length;
    const { job, uid } = await submitSet('pro', { ...imageRequest(), model: 'stable-image-core', samples: 3 }, 3);
    const { state, job: done, generation } = await harness.settled('image', job, 60_000);
    expect(state, done.failedReason).toBe('completed');
    expect(done.attemptsMade).toBe(2);
    // Exactly three generate calls went through, one per image, each once, with the seeds of a set made in
    // one attempt: image 1 was kept from the first attempt.
    expect(generateCalls(before)).toEqual([42, 43, 44]);
    expect(generation.outputs.map((output) => output.seed)).toEqual([42, 43, 44]);
    expect(stored(generation)).toHaveLength(3);
    expect(stored(generation)[0]!.key).toContain(job.id!);
    expect(generation).toMatchObject({ token: 'spent', tokenCount: 3, tokensReturned: 0, paidCalls: 3 });
    expect(await harness.ledgerOf(job.id!)).toEqual([
      { movement: 'charge', amount: -3 },
      { movement: 'spend', amount: 0 },
    ]);
    await expectLedgerAddsUp(uid, 'pro', generation, 3);
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeCloseTo(0.09, 6);
  });

  it('deletes the images a canceled set had made while its retry waited', async () => {
    harness.simulator.injectFault({ route: 'image', fault: 'http500', after: 1, times: 1 });
    const { job, uid } = await submitSet(
      'pro',
      { ...imageRequest(), model: 'stable-image-core', samples: 2 },
      3,
      60_000,
    );
    const id = job.id!;
    // The first attempt made image 1, then failed: the job waits out its backoff with image 1 kept.
    await expect
      .poll(async () => (await harness.queue('image').getJob(id))?.data.imagesMade?.length ?? 0, { timeout: 30_000 })
      .toBe(1);
    await expect
      .poll(async () => (await harness.queue('image').getJob(id))?.getState(), { timeout: 10_000 })
      .toBe('delayed');
    const kept = (await harness.queue('image').getJob(id))!.data.imagesMade![0]!.output as StoredOutput;
    expect(existsSync(join(harness.config.artifactsDir, kept.key))).toBe(true);
    // Image 1 was paid for: the cancel keeps the set's tokens spent, by the token rules.
    const canceled = await harness.lifecycle.cancel(id, { by: 'owner', uid });
    expect(canceled.ok && canceled.generation.token).toBe('spent');
    await harness.jobs.canceled({ id, kind: 'image' });
    expect(existsSync(join(harness.config.artifactsDir, kept.key))).toBe(false);
    expect(existsSync(join(harness.config.artifactsDir, kept.markedKey!))).toBe(false);
  });
});
