import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_ARTIFACT_URL_SECRET, loadConfig } from '../src/config';

const emulator = { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };

function problemsOf(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(emulator);
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      redisUrl: 'redis://127.0.0.1:6379',
      queuePrefix: 'mediagen',
      publicUrl: 'http://127.0.0.1:3000',
      corsOrigins: ['http://127.0.0.1:5173', 'http://localhost:5173'],
      jobs: { attempts: 3, backoffMs: 2000 },
      firebase: { projectId: 'demo-mediagen', authEmulatorHost: '127.0.0.1:9099', credentialsFile: null },
      artifactUrls: { secret: DEV_ARTIFACT_URL_SECRET, ttlSeconds: 3600, usingDevSecret: true },
      production: false,
    });
    expect(config.artifactsDir).toBe(`${config.dataDir}/artifacts`);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      ...emulator,
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://api.example.com/',
      CORS_ORIGIN: 'https://app.example.com, https://www.example.com',
      ARTIFACT_URL_SECRET: 'x'.repeat(40),
      ARTIFACT_URL_TTL_SECONDS: '600',
      JOB_ATTEMPTS: '5',
      JOB_BACKOFF_MS: '100',
    });
    expect(config.publicUrl).toBe('https://api.example.com');
    expect(config.corsOrigins).toEqual(['https://app.example.com', 'https://www.example.com']);
    expect(config.artifactUrls).toEqual({ secret: 'x'.repeat(40), ttlSeconds: 600, usingDevSecret: false });
    expect(config.jobs).toEqual({ attempts: 5, backoffMs: 100 });
  });

  it('names every bad value in one error', () => {
    const message = problemsOf({
      ...emulator,
      PORT: 'eighty',
      REDIS_URL: 'your-redis-url',
      QUEUE_PREFIX: 'undefined',
      JOB_ATTEMPTS: '0',
      CORS_ORIGIN: 'not a url',
    });
    expect(message).toContain('PORT must be a whole number');
    expect(message).toContain('REDIS_URL has a placeholder value');
    expect(message).toContain('QUEUE_PREFIX has a placeholder value');
    expect(message).toContain('JOB_ATTEMPTS must be at least 1');
    expect(message).toContain('CORS_ORIGIN');
  });

  it('requires ARTIFACT_URL_SECRET in production, and a real Firebase project without the emulator', () => {
    const message = problemsOf({ NODE_ENV: 'production' });
    expect(message).toContain('Missing required environment variable: ARTIFACT_URL_SECRET');
    expect(message).toContain('FIREBASE_PROJECT_ID is the demo project "demo-mediagen"');
    expect(message).toContain('FIREBASE_AUTH_EMULATOR_HOST');
  });

  it('refuses a short production secret and the emulator in production', () => {
    const message = problemsOf({ NODE_ENV: 'production', ARTIFACT_URL_SECRET: 'short', ...emulator });
    expect(message).toContain('ARTIFACT_URL_SECRET must be at least 32 characters');
    expect(message).toContain('FIREBASE_AUTH_EMULATOR_HOST must not be set when NODE_ENV=production');
  });

  it('accepts a production setup with a real project and default credentials', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      FIREBASE_PROJECT_ID: 'mediagen-prod',
      ARTIFACT_URL_SECRET: 's'.repeat(48),
    });
    expect(config.production).toBe(true);
    expect(config.firebase).toEqual({ projectId: 'mediagen-prod', authEmulatorHost: null, credentialsFile: null });
    expect(config.artifactUrls.usingDevSecret).toBe(false);
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ ...emulator, PORT: '', HOST: '  ' })).toMatchObject({ port: 3000, host: '127.0.0.1' });
  });

  it('leaves PUBLIC_URL to the bound address when PORT is 0', () => {
    expect(loadConfig({ ...emulator, PORT: '0' }).publicUrl).toBeNull();
  });
});
