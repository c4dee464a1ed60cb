import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_ARTIFACT_URL_SECRET, loadConfig } from '../src/config';

const development = { MEDIAGEN_MODE: 'development', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };

/** Everything production needs, and nothing development-only. */
const production = {
  DATABASE_URL: 'postgres://mediagen@db.internal:5432/mediagen',
  REDIS_URL: 'rediss://redis.internal:6380',
  DATA_DIR: '/srv/mediagen',
  FIREBASE_PROJECT_ID: 'mediagen-prod',
  ARTIFACT_URL_SECRET: 's'.repeat(48),
  ACCOUNT_TRACE_SECRET: 't'.repeat(48),
  API_KEY_HMAC_SECRET: 'k'.repeat(48),
  WEBHOOK_SECRET_KEY: 'w'.repeat(48),
  PUBLIC_URL: 'https://api.mediagen.example',
  CORS_ORIGIN: 'https://mediagen.example',
  HOST: '0.0.0.0',
  METRICS_TOKEN: 'scrape-token-0123456789',
  SMTP_URL: 'smtps://mediagen:secret@smtp.mediagen.example',
  SUPPORT_EMAIL_FROM: 'MediaGen support <support@mediagen.example>',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('development mode is asked for, never the fallback', () => {
  it('applies the local defaults only with MEDIAGEN_MODE=development', () => {
    const config = loadConfig(development);
    expect(config).toMatchObject({
      mode: 'development',
      development: true,
      port: 3000,
      host: '127.0.0.1',
      redis: { kind: 'direct', url: 'redis://127.0.0.1:6379' },
      queuePrefix: 'mediagen',
      publicUrl: 'http://127.0.0.1:3000',
      corsOrigins: ['http://127.0.0.1:5173', 'http://localhost:5173'],
      trustProxy: false,
      jobs: { attempts: 3, backoffMs: 2000 },
      firebase: { projectId: 'demo-mediagen', authEmulatorHost: '127.0.0.1:9099', revalidateSeconds: 60 },
      artifactUrls: { secret: DEV_ARTIFACT_URL_SECRET, ttlSeconds: 3600, usingDevSecret: true },
    });
    expect(config.artifactsDir).toBe(`${config.dataDir}/artifacts`);
  });

  it('is production without MEDIAGEN_MODE, whatever NODE_ENV says, and names every missing setting at once', () => {
    for (const env of [{}, { NODE_ENV: 'development' }, { MEDIAGEN_MODE: '' }]) {
      const problems = problemsOf(env);
      for (const name of [
        'DATABASE_URL',
        'REDIS_URL',
        'DATA_DIR',
        'FIREBASE_PROJECT_ID',
        'ARTIFACT_URL_SECRET',
        'ACCOUNT_TRACE_SECRET',
        'API_KEY_HMAC_SECRET',
        'SMTP_URL',
        'PUBLIC_URL',
        'CORS_ORIGIN',
      ]) {
        expect(problems.join('\n')).toContain(`Missing required environment variable: ${name}`);
      }
    }
  });

  it('refuses an unknown mode', () => {
    expect(problemsOf({ ...production, MEDIAGEN_MODE: 'dev' })).toEqual([
      'MEDIAGEN_MODE must be development or production',
    ]);
  });

  it('accepts a complete production setup', () => {
    const config = loadConfig(production);
    expect(config).toMatchObject({
      mode: 'production',
      development: false,
      redis: { kind: 'direct', url: 'rediss://redis.internal:6380' },
      dataDir: '/srv/mediagen',
      publicUrl: 'https://api.mediagen.example',
      corsOrigins: ['https://mediagen.example'],
      firebase: { projectId: 'mediagen-prod', authEmulatorHost: null },
      artifactUrls: { usingDevSecret: false },
      metricsToken: 'scrape-token-0123456789',
      supportMail: {
        kind: 'smtp',
        url: 'smtps://mediagen:secret@smtp.mediagen.example',
        from: 'MediaGen support <support@mediagen.example>',
      },
    });
  });

  it('reaches Redis through Sentinel without REDIS_URL', () => {
    const { REDIS_URL: _url, ...withoutUrl } = production;
    const config = loadConfig({ ...withoutUrl, REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'mediagen' });
    // How the sentinels are read is core's (core/test/redis-settings.test.ts); here, that the server takes them.
    expect(config.redis).toMatchObject({ kind: 'sentinel', name: 'mediagen', url: null });
  });
});

describe('production refuses what is only safe in development', () => {
  it('the Auth emulator, even blank or whitespace (firebase-admin honours its mere presence)', () => {
    for (const value of ['127.0.0.1:9099', '   ', '']) {
      expect(problemsOf({ ...production, FIREBASE_AUTH_EMULATOR_HOST: value })).toEqual([
        'FIREBASE_AUTH_EMULATOR_HOST must not be set unless MEDIAGEN_MODE=development (the emulator accepts unsigned tokens)',
      ]);
    }
  });

  it('the demo project, a short secret, http origins', () => {
    const problems = problemsOf({
      ...production,
      FIREBASE_PROJECT_ID: 'demo-mediagen',
      ARTIFACT_URL_SECRET: 'short',
      ACCOUNT_TRACE_SECRET: 'short too',
      API_KEY_HMAC_SECRET: 'short three',
      PUBLIC_URL: 'http://api.mediagen.example',
      CORS_ORIGIN: 'http://mediagen.example',
    });
    expect(problems).toContain(
      'FIREBASE_PROJECT_ID is the demo project "demo-mediagen", which only the Auth emulator serves: set a real project id',
    );
    expect(problems).toContain('ARTIFACT_URL_SECRET must be at least 32 characters');
    expect(problems).toContain('ACCOUNT_TRACE_SECRET must be at least 32 characters');
    expect(problems).toContain('API_KEY_HMAC_SECRET must be at least 32 characters');
    expect(problems).toContain('PUBLIC_URL must be an https:// URL in production');
    expect(problems).toContain('CORS_ORIGIN must be an https:// URL in production');
  });

  it('open metrics beyond loopback: METRICS_TOKEN, or a loopback bind', () => {
    const { METRICS_TOKEN: _token, ...withoutToken } = production;
    expect(problemsOf(withoutToken).join('\n')).toContain('Missing required environment variable: METRICS_TOKEN');
    expect(loadConfig({ ...withoutToken, HOST: '127.0.0.1' }).metricsToken).toBeNull();
  });
});

describe('every variable', () => {
  it('reads every variable', () => {
    const config = loadConfig({
      ...development,
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://api.example.com/',
      CORS_ORIGIN: 'https://app.example.com, https://www.example.com',
      ARTIFACT_URL_SECRET: 'x'.repeat(40),
      ACCOUNT_TRACE_SECRET: 'y'.repeat(40),
      ARTIFACT_URL_TTL_SECONDS: '600',
      JOB_ATTEMPTS: '5',
      JOB_BACKOFF_MS: '100',
      AUTH_REVALIDATE_SECONDS: '15',
      SOCKETS_PER_USER: '4',
    });
    expect(config.publicUrl).toBe('https://api.example.com');
    expect(config.corsOrigins).toEqual(['https://app.example.com', 'https://www.example.com']);
    expect(config.artifactUrls).toEqual({ secret: 'x'.repeat(40), ttlSeconds: 600, usingDevSecret: false });
    expect(config.accountTraceSecret).toBe('y'.repeat(40));
    expect(config.jobs).toEqual({ attempts: 5, backoffMs: 100 });
    expect(config.firebase.revalidateSeconds).toBe(15);
    expect(config.limits.socketsPerUser).toBe(4);
  });

  it('reads HTTPS_PROXY, the egress proxy of every call to Google', () => {
    expect(loadConfig(development).firebase.httpsProxy).toBeNull();
    expect(loadConfig({ ...development, HTTPS_PROXY: 'http://proxy.internal:3128' }).firebase.httpsProxy).toBe(
      'http://proxy.internal:3128',
    );
    expect(problemsOf({ ...development, HTTPS_PROXY: 'proxy.internal:3128' })).toEqual([
      'HTTPS_PROXY must be an http(s) URL',
    ]);
  });

  it('reads TRUST_PROXY as a switch, a hop count or a list of addresses', () => {
    expect(loadConfig({ ...development, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...development, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...development, TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
    ]);
    expect(problemsOf({ ...development, TRUST_PROXY: 'the load balancer' })).toEqual([
      'TRUST_PROXY must list IP addresses or CIDR ranges',
    ]);
  });

  it('names every bad value in one error', () => {
    const problems = problemsOf({
      ...development,
      PORT: 'eighty',
      REDIS_URL: 'your-redis-url',
      QUEUE_PREFIX: 'undefined',
      JOB_ATTEMPTS: '0',
      CORS_ORIGIN: 'not a url',
    }).join('\n');
    expect(problems).toContain('PORT must be a whole number');
    expect(problems).toContain('REDIS_URL has a placeholder value');
    expect(problems).toContain('QUEUE_PREFIX has a placeholder value');
    expect(problems).toContain('JOB_ATTEMPTS must be at least 1');
    expect(problems).toContain('CORS_ORIGIN');
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ ...development, PORT: '', HOST: '  ' })).toMatchObject({ port: 3000, host: '127.0.0.1' });
  });

  it('leaves PUBLIC_URL to the bound address when PORT is 0', () => {
    expect(loadConfig({ ...development, PORT: '0' }).publicUrl).toBeNull();
  });
});

describe('tracing', () => {
  it('is off unless an OTLP endpoint is set, and then samples every new trace by default', () => {
    expect(loadConfig(development).tracing).toBeNull();
    expect(
      loadConfig({ ...development, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })
        .tracing,
    ).toBeNull();
    expect(loadConfig({ ...development, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      protocol: 'http/protobuf',
      sampler: 'parentbased_traceidratio',
      sampleRatio: 1,
      serviceName: 'mediagen-api',
    });
  });

  it('reads the standard settings, the traces-only endpoint first', () => {
    const config = loadConfig({
      ...development,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://tempo.internal/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_SERVICE_NAME: 'api-eu',
    });
    expect(config.tracing).toMatchObject({
      endpoint: 'https://tempo.internal/v1/traces',
      protocol: 'http/json',
      sampleRatio: 0.25,
      serviceName: 'api-eu',
    });
  });

  it('refuses settings the SDK would misread or ignore, naming each', () => {
    const problems = problemsOf({
      ...development,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift',
      OTEL_TRACES_SAMPLER: 'jaeger_remote',
      OTEL_TRACES_SAMPLER_ARG: '25%',
    }).join('\n');
    expect(problems).toContain('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL');
    expect(problems).toContain('OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json, grpc');
    expect(problems).toContain('OTEL_TRACES_SAMPLER must be one of');
    expect(problems).toContain('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  });
});
