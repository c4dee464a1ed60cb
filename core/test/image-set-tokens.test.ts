import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_RULES, type PlanId } from '@mediagen/shared';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import {
  GenerationLifecycle,
  isMissingOutput,
  missingOutput,
  newGenerationId,
  openDatabase,
  type CompletedArtifact,
  type CompletedOutput,
  type RecordDatabase,
  type StoredOutput,
} from '../src';

let testDb: TestDatabase;
let database: RecordDatabase;
let lifecycle: GenerationLifecycle;
const now = Date.parse('2026-11-01T00:00:00Z');
const PRO_IMAGES = DEFAULT_PLAN_RULES.pro.allowance.image;

beforeAll(async () => {
  testDb = await createTestDatabase('image_sets');
  database = openDatabase(testDb.url, { maxConnections: 8 });
  lifecycle = new GenerationLifecycle(database.db, { clock: () => now, maxPaidCalls: 2 });
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

async function userOn(plan: PlanId, imageTokens?: number): Promise<string> {
  const uid = `user-${randomUUID()}`;
  await lifecycle.setPlan(uid, plan, 'image set test');
  if (imageTokens !== undefined) {
    await database.db.updateTable('accounts').set({ image_tokens: imageTokens }).where('uid', '=', uid).execute();
  }
  return uid;
}

function submitSet(uid: string, samples: number, model = 'sdxl-1.0') {
  return lifecycle.submit({
    id: newGenerationId('image'),
    uid,
    kind: 'image',
    request: { prompt: 'a set', seed: 1, samples, model },
    prompt: 'a set',
    maxInFlight: 100,
  });
}

async function acceptedSet(uid: string, samples: number, model?: string) {
  const outcome = await submitSet(uid, samples, model);
  if (outcome.status !== 'accepted') throw new Error(`not accepted: ${outcome.status}`);
  return outcome.generation;
}

const imagesLeft = async (uid: string) => (await lifecycle.balance(uid)).tokens.image;

async function ledgerOf(id: string) {
  return database.db
    .selectFrom('token_ledger')
    .select(['movement', 'amount'])
    .where('generation_id', '=', id)
    .orderBy('id')
    .execute();
}

/**
 * What a worker stores for a set of `count` images, those at `filtered` withheld by the provider and those at
 * `failed` not made (their calls failed for good).
 */
function setArtifact(
  id: string,
  count: number,
  filtered: readonly number[] = [],
  failed: readonly number[] = [],
): CompletedArtifact {
  const outputs: CompletedOutput[] = Array.from({ length: count }, (_, index) =>
    filtered.includes(index)
      ? missingOutput('filtered', 1 + index)
      : failed.includes(index)
        ? missingOutput('failed', 1 + index)
        : { key: `${id}-${index + 1}.png`, mimeType: 'image/png', bytes: 1, markedKey: null, seed: 1 + index },
  );
  const first = outputs.find((output): output is StoredOutput => !isMissingOutput(output))!;
  return { ...first, outputs };
}

describe('an image set: its tokens charged together', () => {
  it('charges one image token per image at submit, in one ledger line', async () => {
    const uid = await userOn('pro');
    const generation = await acceptedSet(uid, 4);
    expect(generation).toMatchObject({ token: 'held', tokenCount: 4, tokensReturned: 0 });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES - 4);
    expect(await ledgerOf(generation.id)).toEqual([{ movement: 'charge', amount: -4 }]);
  });

  it('refuses the whole set when fewer tokens are left than images asked for, charging nothing', async () => {
    const uid = await userOn('pro', 3);
    expect((await submitSet(uid, 4)).status).toBe('exhausted');
    expect(await imagesLeft(uid)).toBe(3);
    const rows = await database.db.selectFrom('generations').select('id').where('uid', '=', uid).execute();
    expect(rows).toHaveLength(0);
    await acceptedSet(uid, 3);
    expect(await imagesLeft(uid)).toBe(0);
  });

  it('two sets racing for five tokens: exactly one is charged, never below zero', async () => {
    const uid = await userOn('pro', 5);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => submitSet(uid, 3)));
    expect(outcomes.filter((outcome) => outcome.status === 'accepted')).toHaveLength(1);
    expect(await imagesLeft(uid)).toBe(2);
  });
});

describe('an image set: each token settled on its own', () => {
  it('completed with one image of four filtered: exactly one token back, three spent', async () => {
    const uid = await userOn('pro');
    const { id } = await acceptedSet(uid, 4);
    await lifecycle.startWithPaidCall(id);
    const completed = await lifecycle.complete(id, setArtifact(id, 4, [2]));
    expect(completed.ok).toBe(true);
    const generation = (await lifecycle.find(id))!;
    expect(generation).toMatchObject({ status: 'completed', token: 'spent', tokenCount: 4, tokensReturned: 1 });
    expect(generation.outputs).toHaveLength(4);
    expect(generation.outputs[2]).toEqual({ missing: 'filtered', filtered: true, seed: 3 });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES - 3);
    expect(await ledgerOf(id)).toEqual([
      { movement: 'charge', amount: -4 },
      { movement: 'refund', amount: 1 },
      { movement: 'spend', amount: 0 },
    ]);
  });

  it('completed with two images made, one filtered and one failed for good: the two tokens not made back', async () => {
    const uid = await userOn('pro');
    const { id } = await acceptedSet(uid, 4);
    await lifecycle.startWithPaidCall(id);
    for (let call = 1; call < 4; call += 1) await lifecycle.providerStarted(id);
    const completed = await lifecycle.complete(id, setArtifact(id, 4, [1], [3]));
    expect(completed.ok).toBe(true);
    const generation = (await lifecycle.find(id))!;
    expect(generation).toMatchObject({ status: 'completed', token: 'spent', tokenCount: 4, tokensReturned: 2 });
    expect(generation.outputs[1]).toEqual({ missing: 'filtered', filtered: true, seed: 2 });
    expect(generation.outputs[3]).toEqual({ missing: 'failed', seed: 4 });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES - 2);
    expect(await ledgerOf(id)).toEqual([
      { movement: 'charge', amount: -4 },
      { movement: 'refund', amount: 2 },
      { movement: 'spend', amount: 0 },
    ]);
  });

  it('reads a filtered image recorded before images could fail (`filtered: true` alone) as missing, filtered', async () => {
    const uid = await userOn('pro');
    const { id } = await acceptedSet(uid, 2);
    await lifecycle.startWithPaidCall(id);
    const artifact = setArtifact(id, 2, [1]);
    const legacy = { ...artifact, outputs: [artifact.outputs![0]!, { filtered: true, seed: 2 }] };
    expect((await lifecycle.complete(id, legacy as CompletedArtifact)).ok).toBe(true);
    const generation = (await lifecycle.find(id))!;
    expect(generation).toMatchObject({ token: 'spent', tokensReturned: 1 });
    expect(generation.outputs[1]).toEqual({ missing: 'filtered', filtered: true, seed: 2 });
  });

  it('canceled before any paid work: every token back; after it: every token spent', async () => {
    const uid = await userOn('pro');
    const early = await acceptedSet(uid, 4);
    await lifecycle.start(early.id);
    const canceled = await lifecycle.cancel(early.id, { by: 'owner', uid });
    expect(canceled.ok && canceled.generation).toMatchObject({ token: 'refunded', tokensReturned: 4 });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES);
    expect(await ledgerOf(early.id)).toEqual([
      { movement: 'charge', amount: -4 },
      { movement: 'refund', amount: 4 },
    ]);

    const late = await acceptedSet(uid, 4);
    await lifecycle.startWithPaidCall(late.id);
    const lateCancel = await lifecycle.cancel(late.id, { by: 'owner', uid });
    expect(lateCancel.ok && lateCancel.generation).toMatchObject({ token: 'spent', tokensReturned: 0 });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES - 4);
  });

  it('failed with every image filtered: every token back, with the filtered message', async () => {
    const uid = await userOn('pro');
    const { id } = await acceptedSet(uid, 3, 'stable-image-core');
    await lifecycle.startWithPaidCall(id);
    await lifecycle.providerStarted(id);
    await lifecycle.providerStarted(id);
    const failed = await lifecycle.fail(id, {
      code: 'IMAGE_NOT_GENERATED',
      message: 'No image was generated',
      filteredImages: 3,
    });
    expect(failed.ok && failed.generation).toMatchObject({
      status: 'failed',
      token: 'refunded',
      tokensReturned: 3,
      error: { code: 'IMAGE_NOT_GENERATED', message: 'No image was generated' },
    });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES);
  });

  it('a failure after paid work spends the images not filtered, and an operator retry charges the set again', async () => {
    const uid = await userOn('pro');
    const { id } = await acceptedSet(uid, 4, 'stable-image-core');
    await lifecycle.startWithPaidCall(id);
    await lifecycle.fail(id, { code: 'IMAGE_FAILED', message: 'Failed to generate image', filteredImages: 1 });
    expect(await lifecycle.find(id)).toMatchObject({ token: 'spent', tokensReturned: 1 });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES - 3);
    const retried = await lifecycle.retry(id, { charge: true, maxInFlight: 100 });
    expect(retried.ok && retried.generation).toMatchObject({ status: 'queued', token: 'held', tokensReturned: 0 });
    expect(await imagesLeft(uid)).toBe(PRO_IMAGES - 7);
  });

  it('the paid-call limit grows with a v2beta set (one call an image), not with a v1 set (one call for all)', async () => {
    const uid = await userOn('pro');
    const v2 = await acceptedSet(uid, 3, 'stable-image-core');
    await lifecycle.startWithPaidCall(v2.id);
    for (let call = 2; call <= 6; call += 1)
      expect((await lifecycle.providerStarted(v2.id)).ok, `call ${call}`).toBe(true);
    expect(await lifecycle.providerStarted(v2.id)).toMatchObject({ ok: false, reason: 'call-limit' });
    const v1 = await acceptedSet(uid, 3, 'sdxl-1.0');
    await lifecycle.startWithPaidCall(v1.id);
    expect((await lifecycle.providerStarted(v1.id)).ok).toBe(true);
    expect(await lifecycle.providerStarted(v1.id)).toMatchObject({ ok: false, reason: 'call-limit' });
  });

  it('100 races of a set completing against its cancel: one wins each, and the tokens add up', async () => {
    const uid = await userOn('enterprise');
    const race = async () => {
      const { id } = await acceptedSet(uid, 2);
      await lifecycle.startWithPaidCall(id);
      const [completed, canceled] = await Promise.all([
        lifecycle.complete(id, setArtifact(id, 2, [1])),
        lifecycle.cancel(id, { by: 'owner', uid }),
      ]);
      expect(completed.ok !== canceled.ok, id).toBe(true);
      return (await lifecycle.find(id))!;
    };
    const ended = [];
    for (let batch = 0; batch < 10; batch += 1) ended.push(...(await Promise.all(Array.from({ length: 10 }, race))));
    let spent = 0;
    for (const generation of ended) {
      if (generation.status === 'completed') {
        expect(generation).toMatchObject({ token: 'spent', tokensReturned: 1 });
        spent += 1;
      } else {
        expect(generation).toMatchObject({ status: 'canceled', token: 'spent', tokensReturned: 0, outputs: [] });
        spent += 2;
      }
    }
    const balance = await lifecycle.balance(uid);
    expect(balance).toMatchObject({ inFlight: 0 });
    expect(balance.tokens.image).toBe(DEFAULT_PLAN_RULES.enterprise.allowance.image - spent);
  }, 60_000);
});
