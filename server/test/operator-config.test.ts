import { describe, expect, it } from 'vitest';
import { isAdmin } from '../src/admin/admin-access';
import { AdminSessionSigner, readCookie } from '../src/admin/admin-session';
import { ConfigError, loadConfig } from '../src/config';
import { QueuePositionEstimator } from '../src/generations/queue-positions';
import type { QueueInspector } from '../src/queue/generation-queues';

const emulator = { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };

describe('operator configuration', () => {
  it('has defaults for fair use, rate limits, admin sessions and metrics', () => {
    const config = loadConfig(emulator);
    expect(config.limits).toEqual({ maxInFlightPerUser: 3, rateLimitPerMinute: 120 });
    expect(config.admin).toMatchObject({ emails: [], sessionTtlSeconds: 900 });
    expect(config.metricsToken).toBeNull();
  });

  it('reads ADMIN_EMAILS as a lower-case list and keeps the session key apart from the artifact key', () => {
    const config = loadConfig({
      ...emulator,
      ADMIN_EMAILS: ' Ops@Example.com ,, root@example.com ',
      ARTIFACT_URL_SECRET: 'artifact-secret',
      MAX_IN_FLIGHT_PER_USER: '5',
      RATE_LIMIT_PER_MINUTE: '30',
      METRICS_TOKEN: 'scrape-token-0123456789',
    });
    expect(config.admin.emails).toEqual(['ops@example.com', 'root@example.com']);
    expect(config.admin.sessionSecret).not.toBe('artifact-secret');
    expect(config.limits).toEqual({ maxInFlightPerUser: 5, rateLimitPerMinute: 30 });
    expect(config.metricsToken).toBe('scrape-token-0123456789');
    const separate = loadConfig({ ...emulator, ARTIFACT_URL_SECRET: 'artifact-secret', ADMIN_SESSION_SECRET: 'x' });
    expect(separate.admin.sessionSecret).not.toBe(config.admin.sessionSecret);
  });

  it('names every bad operator variable', () => {
    let message = '';
    try {
      loadConfig({ ...emulator, ADMIN_EMAILS: 'not-an-email', MAX_IN_FLIGHT_PER_USER: '0', METRICS_TOKEN: 'short' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('ADMIN_EMAILS');
    expect(message).toContain('MAX_IN_FLIGHT_PER_USER must be at least 1');
    expect(message).toContain('METRICS_TOKEN');
  });
});

describe('admin identity and session', () => {
  it('is an admin by claim or by listed email, in any case', () => {
    expect(isAdmin({ uid: 'a', email: null, admin: true }, [])).toBe(true);
    expect(isAdmin({ uid: 'b', email: 'Ops@Example.com' }, ['ops@example.com'])).toBe(true);
    expect(isAdmin({ uid: 'c', email: 'someone@example.com', admin: false }, ['ops@example.com'])).toBe(false);
  });

  it('signs sessions that only this key accepts, until they expire', () => {
    let now = 1_000_000_000_000;
    const signer = new AdminSessionSigner('key', 60, () => now);
    const { value } = signer.issue('uid-1');
    expect(signer.verify(value)).toBe('uid-1');
    expect(new AdminSessionSigner('other', 60, () => now).verify(value)).toBeNull();
    const [subject, expiry, signature] = value.split('.');
    expect(signer.verify(`${Buffer.from('uid-2').toString('base64url')}.${expiry}.${signature}`)).toBeNull();
    expect(signer.verify(`${subject}.${Number(expiry) + 600}.${signature}`)).toBeNull();
    expect(signer.verify('garbage')).toBeNull();
    expect(signer.verify(undefined)).toBeNull();
    now += 61_000;
    expect(signer.verify(value)).toBeNull();
  });

  it('reads one cookie from a Cookie header', () => {
    expect(readCookie('a=1; mediagen_admin=x.y.z; b=2', 'mediagen_admin')).toBe('x.y.z');
    expect(readCookie(undefined, 'mediagen_admin')).toBeUndefined();
  });
});

describe('queue ETA', () => {
  const inspector = (position: number | null, workers: number | null, meanRunMs: number | null): QueueInspector => ({
    waitingPosition: async () => position,
    waitingHead: async () => [],
    workerCount: async () => workers,
    meanRunMs: async () => meanRunMs,
    jobCounts: async () => ({}),
    isPaused: async () => false,
  });

  it('is position × mean run time ÷ workers', async () => {
    expect(await new QueuePositionEstimator(inspector(3, 2, 1000)).of('speech', 'x')).toEqual({
      position: 3,
      etaMs: 1500,
    });
  });

  it('is unknown before any run, or with no worker; no position for a job not waiting', async () => {
    expect(await new QueuePositionEstimator(inspector(2, 1, null)).of('speech', 'x')).toEqual({
      position: 2,
      etaMs: null,
    });
    expect(await new QueuePositionEstimator(inspector(2, 0, 500)).of('speech', 'x')).toEqual({
      position: 2,
      etaMs: null,
    });
    expect(await new QueuePositionEstimator(inspector(null, 1, 500)).of('speech', 'x')).toBeNull();
  });
});
