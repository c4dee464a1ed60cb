import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { QuotaLedger, connectRedis, newGenerationId, queueName, refundOrphanedCharges, userKeys } from '../src';

const prefix = `test-orphans-${randomUUID()}`;
let redis: Redis;
let ledger: QuotaLedger;

beforeAll(async () => {
  redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'producer');
  ledger = new QuotaLedger(redis, prefix);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** A charge made `ageMs` ago, as the API makes it just before enqueueing. */
async function chargeAged(uid: string, id: string, ageMs: number): Promise<void> {
  await ledger.consume(uid, 'image', id);
  await redis.pexpire(userKeys(prefix, uid).charge(id), ledger.chargeTtlMs - ageMs);
}

it('gives back the token of a charge whose job never reached the queue, once', async () => {
  const uid = `uid-${randomUUID()}`;
  await chargeAged(uid, newGenerationId('image'), 5 * 60_000);
  expect((await ledger.balance(uid)).tokens.image).toBe(0);

  expect(await refundOrphanedCharges(redis, ledger, prefix)).toBe(1);
  expect((await ledger.balance(uid)).tokens.image).toBe(1);
  expect(await refundOrphanedCharges(redis, ledger, prefix)).toBe(0);
});

it('leaves charges alone while their job exists, or while the API may still be enqueueing', async () => {
  const queued = `uid-${randomUUID()}`;
  const queuedId = newGenerationId('image');
  await chargeAged(queued, queuedId, 5 * 60_000);
  await redis.hset(`${prefix}:${queueName('image')}:${queuedId}`, 'name', 'image');

  const fresh = `uid-${randomUUID()}`;
  await chargeAged(fresh, newGenerationId('image'), 1000);

  expect(await refundOrphanedCharges(redis, ledger, prefix)).toBe(0);
  expect((await ledger.balance(queued)).tokens.image).toBe(0);
  expect((await ledger.balance(fresh)).tokens.image).toBe(0);
});
