import { Redis, type RedisOptions } from 'ioredis';

/**
 * - `producer`: HTTP handlers must answer quickly, so commands fail instead of queueing while Redis is down.
 * - `blocking`: workers and event readers wait for Redis as long as it takes (BullMQ requires
 *   `maxRetriesPerRequest: null` for them).
 */
export type RedisRole = 'producer' | 'blocking';

const ROLE_OPTIONS: Record<RedisRole, RedisOptions> = {
  producer: { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5000 },
  blocking: { maxRetriesPerRequest: null, enableOfflineQueue: true },
};

/** Opens a connection and resolves once it is ready: BullMQ as an ES module wants a ready instance. */
export async function connectRedis(url: string, role: RedisRole, connectionName?: string): Promise<Redis> {
  const redis = new Redis(url, {
    ...ROLE_OPTIONS[role],
    lazyConnect: true,
    ...(connectionName === undefined ? {} : { connectionName }),
    retryStrategy: (attempt) => Math.min(200 * attempt, 2000),
  });
  // Errors are reported through readiness checks and failing commands; an unhandled 'error' event would crash.
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}
