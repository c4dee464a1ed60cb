import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_RULES } from '@mediagen/shared';
import { deleteKeys, testPrefix, TEST_REDIS_URL } from '@mediagen/testing';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import {
  DEFAULT_PRICES,
  EnvReader,
  GenerationLifecycle,
  SpendControls,
  SpendLedger,
  estimateCostUsd,
  newGenerationId,
  openDatabase,
  readPriceTable,
  type RecordDatabase,
} from '../src';
import { holdRow, queued } from './support/row-locks';

let testDb: TestDatabase;
let database: RecordDatabase;
let redis: Redis;
const prefix = testPrefix();
let now = Date.parse('2026-11-24T10:00:00Z');
const clock = () => now;
let lifecycle: GenerationLifecycle;
let ledger: SpendLedger;
let controls: SpendControls;

beforeAll(async () => {
  testDb = await createTestDatabase('spend');
  database = openDatabase(testDb.url, { maxConnections: 4 });
  redis = new Redis(TEST_REDIS_URL);
  lifecycle = new GenerationLifecycle(database.db, { clock });
  ledger = new SpendLedger(database.db, clock);
  controls = new SpendControls(database.db, redis, prefix, ledger, clock);
});
afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  await redis.quit();
  await database.close();
  await testDb.drop();
});

async function submitImage(uid = `user-${randomUUID()}`) {
  const outcome = await lifecycle.submit({
    id: newGenerationId('image'),
    uid,
    kind: 'image',
    request: { prompt: 'a kite', steps: 30, samples: 1 },
    prompt: 'a kite',
    maxInFlight: 10,
  });
  if (outcome.status !== 'accepted') throw new Error(outcome.status);
  return outcome.generation;
}

const submitSpeech = (uid: string) =>
  lifecycle.submit({
    id: newGenerationId('speech'),
    uid,
    kind: 'speech',
    request: { input: 'hi' },
    prompt: 'hi',
    maxInFlight: 10,
  });

describe('prices', () => {
  const context = { videoModel: 'T2V-01', speechModel: 'tts-1' } as const;
  it('estimates each kind from its request', () => {
    expect(estimateCostUsd('image', { steps: 30, samples: 1 }, DEFAULT_PRICES, context)).toBe(0.009);
    // An image set on the v1 engine is one call that bills every sample.
    expect(estimateCostUsd('image', { steps: 60, samples: 2 }, DEFAULT_PRICES, context)).toBe(0.036);
    expect(estimateCostUsd('image', { steps: 30, samples: 4 }, DEFAULT_PRICES, context)).toBe(0.036);
    // v2beta makes one image a call: each call is priced alone, whatever the set.
    expect(estimateCostUsd('image', { model: 'stable-image-core', samples: 4 }, DEFAULT_PRICES, context)).toBe(0.03);
    // v2beta models at their credits, a 4K upscale priced as its own call.
    expect(estimateCostUsd('image', { model: 'stable-image-ultra' }, DEFAULT_PRICES, context)).toBe(0.08);
    expect(estimateCostUsd('image', { model: 'stable-image-core' }, DEFAULT_PRICES, context)).toBe(0.03);
    expect(estimateCostUsd('image', { model: 'sdxl-1.0', steps: 30 }, DEFAULT_PRICES, context)).toBe(0.009);
    expect(estimateCostUsd('image', { model: 'stable-image-ultra' }, DEFAULT_PRICES, context, 'upscale')).toBe(0.02);
    // $15 per million characters.
    expect(estimateCostUsd('speech', { input: 'x'.repeat(1000) }, DEFAULT_PRICES, context)).toBe(0.015);
    expect(
      estimateCostUsd('speech', { input: 'x'.repeat(1000) }, DEFAULT_PRICES, { ...context, speechModel: 'tts-1-hd' }),
    ).toBe(0.03);
  });

  it("prices a video by the model, resolution and length it settled on: MiniMax's price per video", () => {
    const hailuo = (resolution: string, duration: number, quality = 'standard') =>
      estimateCostUsd('video', { model: 'MiniMax-Hailuo-2.3', resolution, duration, quality }, DEFAULT_PRICES, context);
    expect(hailuo('768P', 6)).toBe(0.28);
    expect(hailuo('768P', 10)).toBe(0.56);
    expect(hailuo('1080P', 6, 'hd')).toBe(0.49);
    const base = { model: 'T2V-01', resolution: '720P', duration: 6, quality: 'standard' };
    expect(estimateCostUsd('video', base, DEFAULT_PRICES, context)).toBe(0.43);
    // Recorded before video models had plans: the base model made it.
    expect(estimateCostUsd('video', { duration: 6, quality: 'hd' }, DEFAULT_PRICES, context)).toBe(0.43);
    const prices = readPriceTable(new EnvReader({ PRICE_MINIMAX_HAILUO_USD_PER_768P_10S_CLIP: '0.5' }));
    expect(
      estimateCostUsd('video', { model: 'MiniMax-Hailuo-2.3', resolution: '768P', duration: 10 }, prices, context),
    ).toBe(0.5);
  });

  it('prices a Realtime reading by its tokens, with the model recorded with the speech', () => {
    const thousand = 'x'.repeat(1000);
    // 1,000 characters: ~71 s of audio at 20 tokens a second, 250 transcript tokens, 550 input tokens.
    expect(
      estimateCostUsd('speech', { input: thousand, model: 'gpt-realtime-2.1-mini' }, DEFAULT_PRICES, context),
    ).toBe(0.029501);
    expect(estimateCostUsd('speech', { input: thousand, model: 'gpt-realtime-2.1' }, DEFAULT_PRICES, context)).toBe(
      0.099629,
    );
    // A speech recorded before its model was is priced as the model in use reads it.
    expect(
      estimateCostUsd('speech', { input: thousand }, DEFAULT_PRICES, {
        ...context,
        speechModel: 'gpt-realtime-2.1-mini',
      }),
    ).toBe(0.029501);
  });

  it("takes an operator's price for the Realtime model's audio", () => {
    const prices = readPriceTable(new EnvReader({ PRICE_OPENAI_REALTIME_MINI_USD_PER_MILLION_AUDIO_TOKENS: '40' }));
    expect(prices.openai.realtime['gpt-realtime-2.1-mini']).toEqual({
      audioOutput: 40,
      textOutput: 2.4,
      textInput: 0.6,
    });
    expect(
      estimateCostUsd('speech', { input: 'x'.repeat(1000), model: 'gpt-realtime-2.1-mini' }, prices, context),
    ).toBeGreaterThan(0.058);
  });
});

describe('the spend ledger', () => {
  it('records a paid call on its generation, the day by provider, kind and plan, and the user', async () => {
    const generation = await submitImage();
    expect(await ledger.record(generation, 'stability', 0.009)).toEqual({
      uid: generation.uid,
      kind: 'image',
      plan: 'free',
    });
    await ledger.record(generation, 'stability', 0.009);
    const row = await database.db
      .selectFrom('generations')
      .select('cost_usd')
      .where('id', '=', generation.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.cost_usd)).toBeCloseTo(0.018);
    expect(await ledger.userToday(generation.uid)).toBeCloseTo(0.018);
    const byUser = await ledger.totals('user', 1);
    expect(byUser.find((entry) => entry.key === generation.uid)).toMatchObject({ calls: 1 });
    expect((await ledger.totals('plan', 1)).find((entry) => entry.key === 'free')?.calls).toBeGreaterThanOrEqual(2);
    expect((await ledger.today()).byProvider.stability).toBeGreaterThanOrEqual(0.018);
  });

  it("still counts a call paid for a generation deleted meanwhile, in the provider's day and its owner's", async () => {
    const generation = await submitImage();
    const before = (await ledger.today()).byProvider.stability;
    await database.db.deleteFrom('generations').where('id', '=', generation.id).execute();
    expect(await ledger.record(generation, 'stability', 0.5)).toEqual({
      uid: generation.uid,
      kind: 'image',
      plan: 'free',
    });
    expect((await ledger.today()).byProvider.stability).toBeCloseTo(before + 0.5);
    expect(await ledger.userToday(generation.uid)).toBeCloseTo(0.5);
    // A closed account's day is not made again: the call counts for the provider alone.
    const closed = { id: newGenerationId('image'), uid: `closed-${randomUUID()}`, kind: 'image' as const };
    await ledger.record(closed, 'stability', 0.25);
    expect((await ledger.today()).byProvider.stability).toBeCloseTo(before + 0.75);
    expect(await ledger.userToday(closed.uid)).toBe(0);
  });

  it('a paid call recorded while its generation ends takes the locks in the ending\u2019s order: both commit', async () => {
    // The one interleaving that deadlocked when the ledger took the generation before the account: the
    // recording waits on the generation, an ending takes the account and queues behind it.
    const generation = await submitImage();
    expect((await lifecycle.startWithPaidCall(generation.id)).ok).toBe(true);
    const row = await holdRow(testDb.url, 'generations', 'id', generation.id);
    const recording = await queued(testDb.url, () => ledger.record(generation, 'stability', 0.009));
    const canceling = await queued(testDb.url, () =>
      lifecycle.cancel(generation.id, { by: 'owner', uid: generation.uid }),
    );
    await row.release();

    expect(await recording.outcome).toMatchObject({ uid: generation.uid, plan: 'free' });
    expect(await canceling.outcome).toMatchObject({ ok: true, generation: { status: 'canceled', token: 'spent' } });
    expect(await ledger.userToday(generation.uid)).toBeCloseTo(0.009);
  });

  it('a user past their plan\u2019s daily cap is refused at submit until the next UTC day', async () => {
    const uid = `user-${randomUUID()}`;
    const generation = await submitImage(uid);
    await ledger.record(generation, 'stability', DEFAULT_PLAN_RULES.free.dailySpendCapUsd);
    await lifecycle.start(generation.id);
    await lifecycle.fail(generation.id, { code: 'IMAGE_FAILED', message: 'x' });
    const refused = await submitSpeech(uid);
    expect(refused).toEqual({ status: 'spend-capped', capUsd: DEFAULT_PLAN_RULES.free.dailySpendCapUsd });
    const before = now;
    now = Date.parse('2026-11-25T00:00:01Z');
    try {
      const accepted = await submitSpeech(uid);
      expect(accepted.status).toBe('accepted');
    } finally {
      now = before;
    }
  });
});

describe('the spend controls', () => {
  it('a provider budget holds back exactly that provider, and raising it lets it go again', async () => {
    await controls.setBudget('stability', 0.01);
    const generation = await submitImage();
    await ledger.record(generation, 'stability', 0.01);
    now += 3000; // past the cached decision
    const spentToday = (await ledger.today()).byProvider.stability;
    await controls.setBudget('stability', Math.floor(spentToday * 100) / 100);
    expect(await controls.holdBack('stability')).toBe('budget');
    expect(await controls.holdBack('minimax')).toBeNull();
    expect(await controls.holdBack('openai')).toBeNull();
    expect((await controls.status()).paused).toEqual({ stability: 'budget' });

    await controls.setBudget('stability', spentToday + 10);
    expect(await controls.holdBack('stability')).toBeNull();
    await controls.setBudget('stability', null);
  });

  it('the global budget holds back every provider; a new day frees them', async () => {
    const spent = (await ledger.today()).total;
    await controls.setBudget('global', Math.floor(spent * 100) / 100);
    expect(await controls.holdBack('openai')).toBe('budget');
    const before = now;
    now = Date.parse('2026-11-25T00:00:05Z');
    try {
      await controls.setBudget('global', Math.floor(spent * 100) / 100);
      expect(await controls.holdBack('openai')).toBeNull();
    } finally {
      now = before;
      await controls.setBudget('global', null);
    }
  });

  it('the kill switch holds back every provider at once, from another instance too, and is reversible', async () => {
    const elsewhere = new SpendControls(database.db, redis, prefix, ledger, clock);
    expect(await controls.holdBack('minimax')).toBeNull();
    await elsewhere.setKillSwitch(true, 'runaway retries');
    for (const provider of ['stability', 'minimax', 'openai'] as const) {
      expect(await controls.holdBack(provider)).toBe('kill_switch');
    }
    expect((await controls.status()).killSwitch).toMatchObject({ on: true, reason: 'runaway retries' });
    await elsewhere.setKillSwitch(false, 'fixed');
    expect(await controls.holdBack('minimax')).toBeNull();
  });
});
