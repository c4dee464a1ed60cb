import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis, Result } from 'ioredis';
import { naturalBatches } from '@mediagen/core';

/**
 * Counts one request for each of KEYS in a fixed window of ARGV[i] ms, opened by the key's first request;
 * answers each key's count and the milliseconds its window has left. A key found without a window (none
 * should be) gets one, so no counter outlives its minute.
 */
const COUNT_REQUESTS = `
local answers = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local left = redis.call('PTTL', key)
  if left < 0 then
    left = tonumber(ARGV[i])
    redis.call('PEXPIRE', key, left)
  end
  answers[i] = {count, left}
end
return answers
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    countRequests(keyCount: number, ...keysThenWindows: (string | number)[]): Result<[number, number][], Context>;
  }
}

interface Hit {
  key: string;
  windowMs: number;
}

/** Counts one request of a caller in their current window; answers the count so far and the window's ms left. */
export type RequestCounter = (key: string, windowMs: number) => Promise<{ current: number; ttl: number }>;

/**
 * Counts in Redis as @fastify/rate-limit's own Redis store does (a fixed window per key, shared by every
 * server), but with the requests that arrive together counted in one script call: under load one round
 * trip serves many requests instead of one each.
 */
export function batchedRequestCounter(redis: Redis, namespace: string): RequestCounter {
  redis.defineCommand('countRequests', { lua: COUNT_REQUESTS });
  const count = naturalBatches(async (hits: readonly Hit[]) => {
    const answers = await redis.countRequests(
      hits.length,
      ...hits.map((hit) => hit.key),
      ...hits.map((hit) => hit.windowMs),
    );
    return answers.map(([current, ttl]) => ({ current, ttl }));
  });
  return (key, windowMs) => count({ key: `${namespace}${key}`, windowMs });
}

/** @fastify/rate-limit's store, counting with batchedRequestCounter. */
export function batchedRateLimitStore(redis: Redis, namespace: string): FastifyRateLimitStoreCtor {
  const count = batchedRequestCounter(redis, namespace);
  return class BatchedRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number): void {
      count(key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    // Route-level limits are not used: every route shares the one counter per caller.
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
