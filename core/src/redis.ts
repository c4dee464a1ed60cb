import { Redis, type RedisOptions } from 'ioredis';
import { redisEndpointOptions, type RedisEndpoint } from './redis-endpoint';

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

/**
 * A primary demoted by a failover answers writes with READONLY while the connection stays open: reconnect
 * (to the primary Sentinel names now, or that a managed service's address points to now) and send the
 * command again, ioredis's documented cure. BullMQ's scripts report it inside a script error, hence
 * `includes` rather than a prefix.
 */
function reconnectOnReadOnly(error: Error): 2 | false {
  return error.message.includes('READONLY') ? 2 : false;
}

/**
 * Opens a connection and resolves once it is ready: BullMQ as an ES module wants a ready instance. A plain
 * URL is a direct endpoint (tests and benchmarks on the local Redis). BullMQ's own connections (a Worker's
 * blocking one, QueueEvents) are `duplicate()`s of this one and so follow a failover the same way.
 */
export async function connectRedis(
  endpoint: RedisEndpoint | string,
  role: RedisRole,
  connectionName?: string,
): Promise<Redis> {
  const { url, options } = redisEndpointOptions(
    typeof endpoint === 'string' ? { kind: 'direct', url: endpoint } : endpoint,
  );
  const settings: RedisOptions = {
    ...options,
    ...ROLE_OPTIONS[role],
    lazyConnect: true,
    ...(connectionName === undefined ? {} : { connectionName }),
    retryStrategy: (attempt) => Math.min(200 * attempt, 2000),
    reconnectOnError: reconnectOnReadOnly,
  };
  const redis = url === null ? new Redis(settings) : new Redis(url, settings);
  // Errors are reported through readiness checks and failing commands; an unhandled 'error' event would crash.
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}
