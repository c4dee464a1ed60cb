import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { DAY_MS } from '@mediagen/shared';
import { QuotaLedger, connectRedis, newGenerationId, userKeys } from '../src';

const prefix = `test-core-${randomUUID()}`;
let redis: Redis;
let now = Date.UTC(2026, 10, 1);
let ledger: QuotaLedger;

beforeAll(async () => {
  redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'producer');
  ledger = new QuotaLedger(redis, prefix, undefined, () => now);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const newUser = () => `uid-${randomUUID()}`;

describe('QuotaLedger', () => {
  it('starts a new user on the full allowance and refuses at zero', async () => {
    const uid = newUser();
    expect((await ledger.balance(uid)).tokens).toEqual({ image: 1, video: 1, speech: 2 });
    expect((await ledger.consume(uid, 'speech', newGenerationId('speech'))).status).toBe('charged');
    expect((await ledger.consume(uid, 'speech', newGenerationId('speech'))).status).toBe('charged');
    expect((await ledger.consume(uid, 'speech', newGenerationId('speech'))).status).toBe('exhausted');
    expect((await ledger.balance(uid)).tokens).toEqual({ image: 1, video: 1, speech: 0 });
  });

  it('charges one id once, and records it under the user', async () => {
    const uid = newUser();
    const id = newGenerationId('image');
    expect((await ledger.consume(uid, 'image', id)).status).toBe('charged');
    expect((await ledger.consume(uid, 'image', id)).status).toBe('already-charged');
    expect((await ledger.balance(uid)).tokens.image).toBe(0);
    expect(await redis.zrange(userKeys(prefix, uid).generations, 0, -1)).toEqual([id]);
  });

  it('lets exactly one of many simultaneous charges through when one token is left', async () => {
    const uid = newUser();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => ledger.consume(uid, 'video', newGenerationId('video'))),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'charged')).toHaveLength(1);
  });

  it('refunds a charge once, never above the allowance, and not after settling', async () => {
    const uid = newUser();
    const id = newGenerationId('image');
    await ledger.consume(uid, 'image', id);
    expect(await ledger.refund(uid, 'image', id)).toBe(true);
    expect(await ledger.refund(uid, 'image', id)).toBe(false);
    expect((await ledger.balance(uid)).tokens.image).toBe(1);

    const settled = newGenerationId('image');
    await ledger.consume(uid, 'image', settled);
    await ledger.settle(uid, settled);
    expect(await ledger.refund(uid, 'image', settled)).toBe(false);
    expect((await ledger.balance(uid)).tokens.image).toBe(0);
  });

  it('resets every balance 30 days after the last reset, and does not refund a charge from before it', async () => {
    const uid = newUser();
    const id = newGenerationId('video');
    await ledger.consume(uid, 'video', id);
    now += 29 * DAY_MS;
    expect((await ledger.consume(uid, 'video', newGenerationId('video'))).status).toBe('exhausted');
    now += DAY_MS;
    expect((await ledger.balance(uid)).tokens.video).toBe(1);
    expect((await ledger.consume(uid, 'video', newGenerationId('video'))).status).toBe('charged');
    expect(await ledger.refund(uid, 'video', id)).toBe(false);
    expect((await ledger.balance(uid)).tokens.video).toBe(0);
  });

  it('counts a charged generation in flight until it is settled or refunded, and refuses past the cap with nothing changed', async () => {
    const uid = newUser();
    const speech = newGenerationId('speech');
    const image = newGenerationId('image');
    expect((await ledger.consume(uid, 'speech', speech, 2)).status).toBe('charged');
    expect((await ledger.consume(uid, 'image', image, 2)).status).toBe('charged');
    const video = newGenerationId('video');
    expect(await ledger.consume(uid, 'video', video, 2)).toEqual({ status: 'too-many-in-flight', inFlight: 2 });
    expect((await ledger.balance(uid)).tokens.video).toBe(1);
    expect(await redis.zscore(userKeys(prefix, uid).generations, video)).toBeNull();
    // The same id again is not a new generation: the cap does not refuse it.
    expect((await ledger.consume(uid, 'speech', speech, 2)).status).toBe('already-charged');

    await ledger.settle(uid, speech);
    expect(await ledger.inFlight(uid)).toEqual([image]);
    await ledger.refund(uid, 'image', image);
    expect(await ledger.inFlight(uid)).toEqual([]);
    expect((await ledger.consume(uid, 'video', video, 2)).status).toBe('charged');
  });

  it('takes no slot for a request refused for tokens', async () => {
    const uid = newUser();
    await ledger.consume(uid, 'video', newGenerationId('video'), 3);
    expect((await ledger.consume(uid, 'video', newGenerationId('video'), 3)).status).toBe('exhausted');
    expect(await ledger.inFlight(uid)).toHaveLength(1);
  });
});
