import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { CancellationRegistry, cancellationChannel, connectRedis, newGenerationId } from '../src';

const prefix = `test-core-${randomUUID()}`;
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: Redis;
let subscriber: Redis;

beforeAll(async () => {
  redis = await connectRedis(url, 'producer');
  subscriber = await connectRedis(url, 'blocking');
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await Promise.all([redis.quit(), subscriber.quit()]);
});

it('sets the flag once and announces the first cancel on the cancellations channel', async () => {
  const heard: string[] = [];
  subscriber.on('message', (channel: string, id: string) => {
    if (channel === cancellationChannel(prefix)) heard.push(id);
  });
  await subscriber.subscribe(cancellationChannel(prefix));
  const registry = new CancellationRegistry(redis, prefix);
  const id = newGenerationId('image');

  expect(await registry.cancel(id)).toBe(true);
  expect(await registry.cancel(id)).toBe(false);
  expect(await registry.isCanceled(id)).toBe(true);
  expect(await registry.canceledAmong([id, newGenerationId('video')])).toEqual(new Set([id]));
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(heard).toEqual([id]);
});
