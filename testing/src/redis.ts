import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** The machine's Redis; every test uses a key prefix of its own and deletes it afterwards. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A queue prefix no other test file shares. */
export function testPrefix(label = 'test'): string {
  return `${label}-${randomUUID()}`;
}

/** Deletes every key matching `pattern` (SCAN, so a large prefix never blocks Redis). */
export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}
