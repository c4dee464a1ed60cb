import { describe, expect, it } from 'vitest';
import { isAdmin } from '../src/admin/admin-access';
import { readCookie } from '../src/auth/cookie-sessions';
import { ConfigError, loadConfig } from '../src/config';
import { QueuePositions } from '../src/generations/queue-positions';

const emulator = { MEDIAGEN_MODE: 'development', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };

describe('operator configuration', () => {
  it('has defaults for fair use, rate limits, admin sessions and metrics', () => {
    const config = loadConfig(emulator);
    expect(config.limits).toEqual({
      maxInFlightPerUser: 3,
      rateLimitPerMinute: 120,
      socketsPerUser: 10,
      pendingSocketsPerAddress: 20,
      pendingSocketsMax: 1000,
      supportRequestsPerHour: 5,
      salesRequestsPerHour: 5,
    });
    expect(config.admin).toMatchObject({ emails: [], sessionTtlSeconds: 900 });
    expect(config.metricsToken).toBeNull();
  });

  it('reads ADMIN_EMAILS as a lower-case list, and the limits', () => {
    const config = loadConfig({
      ...emulator,
      ADMIN_EMAILS: ' Ops@Example.com ,, root@example.com ',
      MAX_IN_FLIGHT_PER_USER: '5',
      RATE_LIMIT_PER_MINUTE: '30',
      SOCKET_PENDING_PER_IP: '4',
      SOCKET_PENDING_MAX: '200',
      SUPPORT_REQUESTS_PER_HOUR: '20',
      SALES_REQUESTS_PER_HOUR: '8',
      METRICS_TOKEN: 'scrape-token-0123456789',
    });
    expect(config.admin.emails).toEqual(['ops@example.com', 'root@example.com']);
    expect(config.limits).toEqual({
      maxInFlightPerUser: 5,
      rateLimitPerMinute: 30,
      socketsPerUser: 10,
      pendingSocketsPerAddress: 4,
      pendingSocketsMax: 200,
      supportRequestsPerHour: 20,
      salesRequestsPerHour: 8,
    });
    expect(config.metricsToken).toBe('scrape-token-0123456789');
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

describe('admin identity', () => {
  it('is an admin by claim, or by a listed email in any case once that email is verified', () => {
    expect(isAdmin({ email: null, emailVerified: false, admin: true }, [])).toBe(true);
    expect(isAdmin({ email: 'Ops@Example.com', emailVerified: true, admin: false }, ['ops@example.com'])).toBe(true);
    // Anyone may register an unclaimed listed address; only its owner can verify it.
    expect(isAdmin({ email: 'ops@example.com', emailVerified: false, admin: false }, ['ops@example.com'])).toBe(false);
    expect(isAdmin({ email: 'someone@example.com', emailVerified: true, admin: false }, ['ops@example.com'])).toBe(
      false,
    );
  });

  it('reads one cookie from a Cookie header', () => {
    expect(readCookie('a=1; mediagen_admin=x.y.z; b=2', 'mediagen_admin')).toBe('x.y.z');
    expect(readCookie(undefined, 'mediagen_admin')).toBeUndefined();
  });
});

describe('queue ETA', () => {
  const load = (workers: number | null, meanRunMs: number | null) => ({
    isHeldBack: async () => false,
    workerCount: async () => workers,
    meanRunMs: async () => meanRunMs,
  });
  // The ETA needs no database: only the position, the recent run times and the workers.
  const positions = (workers: number | null, meanRunMs: number | null) =>
    new QueuePositions(undefined as never, load(workers, meanRunMs));

  it('is position × mean run time ÷ workers', async () => {
    expect(await positions(2, 1000).eta('speech', 3)).toEqual({ position: 3, etaMs: 1500 });
  });

  it('is unknown before any run, or with no worker', async () => {
    expect(await positions(1, null).eta('speech', 2)).toEqual({ position: 2, etaMs: null });
    expect(await positions(0, 500).eta('speech', 2)).toEqual({ position: 2, etaMs: null });
  });
});
