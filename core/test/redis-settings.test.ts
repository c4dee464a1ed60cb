import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  EnvReader,
  describeRedisEndpoint,
  readCommonSettings,
  readRedisEndpoint,
  redisEndpointOptions,
  type Env,
  type RedisUrlRule,
} from '../src';

const development: RedisUrlRule = { defaultUrl: 'redis://127.0.0.1:6379' };
const production: RedisUrlRule = { requiredBecause: 'required when MEDIAGEN_MODE is not development' };

function read(env: Env, rule: RedisUrlRule = production) {
  const reader = new EnvReader(env);
  const endpoint = readRedisEndpoint(reader, rule);
  reader.finish('test');
  return endpoint;
}

function problemsOf(env: Env, rule: RedisUrlRule = production): string[] {
  try {
    read(env, rule);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

const sentinels = {
  REDIS_SENTINELS: 'sentinel-1:26379, sentinel-2:26379,10.0.0.3:26380',
  REDIS_SENTINEL_NAME: 'mymaster',
};

describe('REDIS_URL alone: one address', () => {
  it('falls back on the local Redis in development only', () => {
    expect(read({}, development)).toEqual({ kind: 'direct', url: 'redis://127.0.0.1:6379' });
    expect(problemsOf({})).toEqual([
      'Missing required environment variable: REDIS_URL (required when MEDIAGEN_MODE is not development, unless REDIS_SENTINELS is set)',
    ]);
  });

  it('takes redis:// and rediss:// URLs, nothing else', () => {
    expect(read({ REDIS_URL: 'rediss://:secret@redis.internal:6380/2' })).toEqual({
      kind: 'direct',
      url: 'rediss://:secret@redis.internal:6380/2',
    });
    expect(problemsOf({ REDIS_URL: 'http://redis.internal' })).toEqual([
      'REDIS_URL must be a redis:// or rediss:// URL',
    ]);
  });

  it('refuses a Sentinel setting without the sentinels, which would quietly be ignored', () => {
    expect(
      problemsOf({
        REDIS_URL: 'redis://redis.internal',
        REDIS_SENTINEL_NAME: 'mymaster',
        REDIS_SENTINEL_PASSWORD: 'x',
      }),
    ).toEqual([
      'REDIS_SENTINEL_NAME is set but REDIS_SENTINELS is not: set REDIS_SENTINELS too, or unset REDIS_SENTINEL_NAME',
      'REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not: set REDIS_SENTINELS too, or unset REDIS_SENTINEL_PASSWORD',
    ]);
  });
});

describe('REDIS_SENTINELS: the primary that Sentinel names', () => {
  it('reads the sentinels and the group, with REDIS_URL optional even in production', () => {
    expect(read(sentinels)).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 'sentinel-1', port: 26379 },
        { host: 'sentinel-2', port: 26379 },
        { host: '10.0.0.3', port: 26380 },
      ],
      name: 'mymaster',
      sentinelPassword: null,
      url: null,
    });
  });

  it('keeps REDIS_URL for its credentials and TLS, and the sentinels’ own password', () => {
    expect(
      read({
        ...sentinels,
        REDIS_SENTINELS: '[::1]:26379',
        REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
        REDIS_URL: 'rediss://app:data-secret@ignored-host:6380/1',
      }),
    ).toMatchObject({
      sentinels: [{ host: '::1', port: 26379 }],
      sentinelPassword: 'sentinel-secret',
      url: 'rediss://app:data-secret@ignored-host:6380/1',
    });
  });

  it('names the group setting when it is missing or malformed', () => {
    expect(problemsOf({ REDIS_SENTINELS: sentinels.REDIS_SENTINELS })).toEqual([
      'Missing required environment variable: REDIS_SENTINEL_NAME (required when REDIS_SENTINELS is set)',
    ]);
    expect(problemsOf({ ...sentinels, REDIS_SENTINEL_NAME: 'my master' })).toEqual([
      'REDIS_SENTINEL_NAME must be the master group name the sentinels monitor (letters, digits, . _ and - only)',
    ]);
  });

  it.each([
    ['sentinel-1', '"sentinel-1" is not host:port'],
    ['sentinel-1:26379,,sentinel-2:26379', '"" is not host:port'],
    ['sentinel-1:0', '"sentinel-1:0" is not host:port'],
    ['sentinel-1:65536', '"sentinel-1:65536" is not host:port'],
    ['redis://sentinel-1:26379', '"redis://sentinel-1:26379" is not host:port'],
    ['::1:26379', '"::1:26379" is not host:port'],
  ])('refuses REDIS_SENTINELS=%s, showing the expected form', (value, why) => {
    expect(problemsOf({ ...sentinels, REDIS_SENTINELS: value })).toEqual([
      `REDIS_SENTINELS must list sentinels as host:port separated by commas, e.g. sentinel-1:26379,sentinel-2:26379,sentinel-3:26379 (${why})`,
    ]);
  });

  it('refuses a sentinel listed twice, and a placeholder', () => {
    expect(problemsOf({ ...sentinels, REDIS_SENTINELS: 'a:26379,b:26379,a:26379' })).toEqual([
      'REDIS_SENTINELS lists a:26379 twice',
    ]);
    expect(problemsOf({ ...sentinels, REDIS_SENTINELS: 'your-sentinels' })).toEqual([
      'REDIS_SENTINELS has a placeholder value ("your-sentinels")',
    ]);
  });
});

describe('the shared settings', () => {
  it('carry the endpoint for every process', () => {
    const settings = readCommonSettings(new EnvReader({ MEDIAGEN_MODE: 'development', ...sentinels }));
    expect(settings.redis).toMatchObject({ kind: 'sentinel', name: 'mymaster' });
  });
});

describe('what ioredis is given', () => {
  it('a direct endpoint: its URL as it is', () => {
    expect(redisEndpointOptions({ kind: 'direct', url: 'redis://127.0.0.1:6379' })).toEqual({
      url: 'redis://127.0.0.1:6379',
      options: {},
    });
  });

  it('behind Sentinel: the sentinels, the group, the primary role, failover detection and the URL’s TLS', () => {
    const endpoint = read({ ...sentinels, REDIS_SENTINEL_PASSWORD: 's', REDIS_URL: 'rediss://:p@primary:6380' });
    expect(redisEndpointOptions(endpoint)).toEqual({
      url: 'rediss://:p@primary:6380',
      options: {
        sentinels: [
          { host: 'sentinel-1', port: 26379 },
          { host: 'sentinel-2', port: 26379 },
          { host: '10.0.0.3', port: 26380 },
        ],
        name: 'mymaster',
        sentinelPassword: 's',
        role: 'master',
        failoverDetector: true,
        enableTLSForSentinelMode: true,
      },
    });
    expect(redisEndpointOptions(read(sentinels)).options.enableTLSForSentinelMode).toBe(false);
  });

  it('describes an endpoint without its passwords', () => {
    expect(describeRedisEndpoint({ kind: 'direct', url: 'rediss://app:secret@redis.internal:6380' })).toBe(
      'redis.internal:6380',
    );
    const described = describeRedisEndpoint(
      read({ ...sentinels, REDIS_SENTINELS: 'sentinel-1:26379,[::1]:26379', REDIS_SENTINEL_PASSWORD: 'secret' }),
    );
    expect(described).toBe('the primary of "mymaster" (sentinels sentinel-1:26379, [::1]:26379)');
    expect(described).not.toContain('secret');
  });
});
