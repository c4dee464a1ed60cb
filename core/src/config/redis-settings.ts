import { z } from 'zod';
import type { RedisEndpoint, SentinelAddress } from '../redis-endpoint';
import type { EnvReader } from './env-reader';

export const redisUrlSchema = z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' });

const SENTINELS_EXAMPLE = 'sentinel-1:26379,sentinel-2:26379,sentinel-3:26379';
// A host name or IPv4 address, or an IPv6 address in brackets; then the port.
const ADDRESS_PATTERN = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;

/** `host:port,host:port,…`, each sentinel once. */
const sentinelsSchema = z.string().transform((text, context) => {
  const sentinels: SentinelAddress[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const match = ADDRESS_PATTERN.exec(entry);
    const port = Number(match?.[3]);
    if (match === null || port < 1 || port > 65535) {
      context.addIssue({
        code: 'custom',
        message: `must list sentinels as host:port separated by commas, e.g. ${SENTINELS_EXAMPLE} (${JSON.stringify(entry)} is not host:port)`,
      });
      return z.NEVER;
    }
    const host = match[1] ?? match[2]!;
    if (sentinels.some((sentinel) => sentinel.host === host && sentinel.port === port)) {
      context.addIssue({ code: 'custom', message: `lists ${entry} twice` });
      return z.NEVER;
    }
    sentinels.push({ host, port });
  }
  return sentinels;
});

const groupNameSchema = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, {
  error: 'must be the master group name the sentinels monitor (letters, digits, . _ and - only)',
});
const SENTINEL_ONLY = ['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD'] as const;

/** Development falls back on a local Redis; production names its Redis (`requiredBecause` says why). */
export type RedisUrlRule = { defaultUrl: string } | { requiredBecause: string };

/**
 * REDIS_URL alone: that one address. REDIS_SENTINELS with REDIS_SENTINEL_NAME: the primary the sentinels
 * name at each (re)connection, so a failover is followed without a restart; REDIS_URL is then optional
 * and only lends its credentials, database and TLS.
 */
export function readRedisEndpoint(reader: EnvReader, rule: RedisUrlRule): RedisEndpoint {
  const listed = reader.raw('REDIS_SENTINELS');
  // A placeholder there is reported already; whoever wrote it meant Sentinel, so REDIS_URL is not asked for.
  if (listed === undefined && !reader.reported('REDIS_SENTINELS')) {
    // A Sentinel setting without the sentinels would quietly connect to REDIS_URL's one address instead.
    for (const name of SENTINEL_ONLY) {
      if (reader.raw(name) !== undefined) {
        reader.problem(`${name} is set but REDIS_SENTINELS is not: set REDIS_SENTINELS too, or unset ${name}`);
      }
    }
    const url =
      'defaultUrl' in rule
        ? reader.read('REDIS_URL', redisUrlSchema, rule.defaultUrl)
        : reader.require('REDIS_URL', redisUrlSchema, `${rule.requiredBecause}, unless REDIS_SENTINELS is set`);
    // Invalid or missing, the problem is reported and `finish` throws: the fallback is never used.
    return { kind: 'direct', url: url ?? ('defaultUrl' in rule ? rule.defaultUrl : '') };
  }
  return {
    kind: 'sentinel',
    sentinels: (listed === undefined ? undefined : reader.read('REDIS_SENTINELS', sentinelsSchema)) ?? [],
    name: reader.require('REDIS_SENTINEL_NAME', groupNameSchema, 'required when REDIS_SENTINELS is set') ?? '',
    sentinelPassword: reader.raw('REDIS_SENTINEL_PASSWORD') ?? null,
    url: reader.read('REDIS_URL', redisUrlSchema) ?? null,
  };
}
