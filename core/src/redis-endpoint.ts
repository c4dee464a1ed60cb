import type { RedisOptions } from 'ioredis';

export interface SentinelAddress {
  host: string;
  port: number;
}

/**
 * Where the Redis every process shares is found: one fixed address (REDIS_URL), or the primary of a
 * group that Redis Sentinel watches, which moves to a replica when the primary fails (REDIS_SENTINELS).
 */
export type RedisEndpoint =
  | { kind: 'direct'; url: string }
  | {
      kind: 'sentinel';
      sentinels: readonly SentinelAddress[];
      /** The master group name the sentinels monitor (`sentinel monitor <name> …`). */
      name: string;
      /** Sentinels' own `requirepass`, when they have one. */
      sentinelPassword: string | null;
      /** REDIS_URL, when set: its user, password, database and TLS (rediss://) apply; its host and port do not. */
      url: string | null;
    };

/**
 * What ioredis needs to reach the endpoint: the URL (credentials, database, TLS) and, behind Sentinel,
 * the sentinels to ask where the primary is now.
 */
export function redisEndpointOptions(endpoint: RedisEndpoint): { url: string | null; options: RedisOptions } {
  if (endpoint.kind === 'direct') return { url: endpoint.url, options: {} };
  return {
    url: endpoint.url,
    options: {
      sentinels: endpoint.sentinels.map(({ host, port }) => ({ host, port })),
      name: endpoint.name,
      ...(endpoint.sentinelPassword === null ? {} : { sentinelPassword: endpoint.sentinelPassword }),
      role: 'master',
      // Without it, ioredis only looks for the new primary when its connection drops; a primary demoted
      // while still reachable would keep every connection (and a worker's blocking wait) on a replica.
      failoverDetector: true,
      // Behind Sentinel, ioredis drops a rediss:// URL's TLS unless told to keep it for the primary.
      enableTLSForSentinelMode: endpoint.url?.startsWith('rediss:') ?? false,
    },
  };
}

/** The endpoint for logs and error messages: addresses only, never a password. */
export function describeRedisEndpoint(endpoint: RedisEndpoint): string {
  if (endpoint.kind === 'direct') return new URL(endpoint.url).host;
  const sentinels = endpoint.sentinels
    .map(({ host, port }) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`))
    .join(', ');
  return `the primary of "${endpoint.name}" (sentinels ${sentinels})`;
}
