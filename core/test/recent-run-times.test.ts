import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { RecentRunTimes, connectRedis } from '../src';

const prefix = `test-core-${randomUUID()}`;
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: Redis;

beforeAll(async () => {
  redis = await connectRedis(url, 'producer');
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

it('averages the latest runs of a kind, as written by any process, and forgets the oldest', async () => {
  const writer = new RecentRunTimes(redis, prefix, 3);
  const reader = new RecentRunTimes(redis, prefix, 3);
  expect(await reader.meanMs('video')).toBeNull();

  for (const runMs of [10_000, 1000, 2000, 3000]) await writer.record('video', runMs);
  await writer.record('image', 500);

  expect(await reader.meanMs('video')).toBe(2000);
  expect(await reader.meanMs('image')).toBe(500);
  expect(await reader.meanMs('speech')).toBeNull();
  expect(await redis.llen(`${prefix}:run-times:video`)).toBe(3);
});
