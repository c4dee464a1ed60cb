import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestApp, type TestContext } from '@mediagen/server/testing';
import { createTestUser, type TestUser } from '@mediagen/server/testing';
import { EMULATOR_PROJECT_ID } from '@mediagen/testing';
import { REQUESTS, call, submit, tokens } from './support/api';
import { io as connectSocket } from 'socket.io-client';

/**
 * Tokens, secrets in answers, CORS, headers and the per-user request limit, against the real app and
 * emulator (that the client's bundle holds no secret is client/vite/production-build.test.ts's). The
 * emulator takes unsigned tokens only, so signatures are proven in production-tokens.test.ts, against a
 * production server and signing keys of the test's own.
 */
const ALLOWED_ORIGIN = 'http://app.mediagen.test';
let context: TestContext;
let server: TestApp;
let user: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start({ CORS_ORIGIN: ALLOWED_ORIGIN, RATE_LIMIT_PER_MINUTE: '100000' });
  user = await createTestUser();
});

afterAll(async () => {
  await context?.cleanup();
});

const base64url = (value: object | Buffer) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

function decodePayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

/** An ID token as the Auth emulator mints them (unsigned), with claims of our choosing. */
function mintEmulatorStyle(claims: Record<string, unknown>): string {
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
}

const status = async (token: string) =>
  (await call(server.origin, { ...user, idToken: token }, 'GET', '/api/me')).status;

describe('ID tokens', () => {
  it('a hand-minted token with the emulator claims is accepted (the control for the refusals below)', async () => {
    // firebase-admin checks revocation against the emulator: auth_time must not precede the account.
    expect(await status(mintEmulatorStyle(decodePayload(user.idToken)))).toBe(200);
  });

  it('an expired token is refused, over HTTP and at the socket handshake', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = mintEmulatorStyle({ ...decodePayload(user.idToken), iat: now - 7200, exp: now - 3600 });
    expect(await status(expired)).toBe(401);
    const socket = connectSocket(server.origin, {
      auth: { token: expired },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const outcome = await new Promise<string>((done) => {
      socket.once('connect', () => done('connected'));
      socket.once('connect_error', (error: Error) => done(error.message));
    });
    socket.disconnect();
    expect(outcome).toBe('UNAUTHENTICATED');
  });

  it('a token of another project is refused', async () => {
    const other = 'demo-another-project';
    expect(other).not.toBe(EMULATOR_PROJECT_ID);
    const foreign = mintEmulatorStyle({
      ...decodePayload(user.idToken),
      aud: other,
      iss: `https://securetoken.google.com/${other}`,
    });
    expect(await status(foreign)).toBe(401);
  });

  it('garbage, truncated and missing tokens are refused with the one error shape', async () => {
    for (const token of ['x', user.idToken.slice(0, 40), `${user.idToken}.extra`, '']) {
      const answer = await call(server.origin, { ...user, idToken: token }, 'GET', '/api/me');
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' } });
    }
  });
});

describe('HTTP surface', () => {
  it('CORS: preflight from the configured origin is allowed, from any other gets no Allow-Origin', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.origin}/api/generations`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const allowed = await preflight(ALLOWED_ORIGIN);
    expect(allowed.status).toBeLessThan(300);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    for (const origin of ['http://evil.test', 'null', `${ALLOWED_ORIGIN}.evil.test`, 'http://127.0.0.1:5173']) {
      const refused = await preflight(origin);
      expect(refused.headers.get('access-control-allow-origin'), origin).toBeNull();
      const simple = await fetch(`${server.origin}/api/me`, {
        headers: { origin, authorization: `Bearer ${user.idToken}` },
      });
      expect(simple.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('security headers on API answers, no X-Powered-By', async () => {
    for (const path of ['/healthz', '/api/me', '/api/nowhere']) {
      const response = await fetch(`${server.origin}${path}`, { headers: { authorization: `Bearer ${user.idToken}` } });
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      expect(response.headers.get('strict-transport-security'), path).toMatch(/max-age=\d+/);
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('x-powered-by'), path).toBeNull();
    }
  });

  it('answers never carry a provider key or a stack trace', async () => {
    const texts = [
      (await call(server.origin, user, 'GET', '/api/me')).text,
      (await call(server.origin, user, 'GET', '/api/generations')).text,
      (await call(server.origin, user, 'POST', '/api/generations', { kind: 'image' })).text,
      (await call(server.origin, user, 'GET', '/api/generations/image_00000000000000000000000000000000')).text,
      (await call(server.origin, null, 'GET', '/readyz')).text,
    ];
    for (const text of texts) {
      expect(text).not.toMatch(/sk-[A-Za-z0-9_-]{16,}|at .+\.ts:\d+|node_modules/);
    }
  });
});

describe('per-user request limit', () => {
  it('answers a clear 429 past RATE_LIMIT_PER_MINUTE, per user, and a refused submit charges nothing', async () => {
    const limited = await context.start({ CORS_ORIGIN: ALLOWED_ORIGIN, RATE_LIMIT_PER_MINUTE: '5' });
    const [busy, other] = await Promise.all([createTestUser(), createTestUser()]);
    const statuses: number[] = [];
    for (let index = 0; index < 8; index += 1)
      statuses.push((await call(limited.origin, busy, 'GET', '/api/me')).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    const refused = await submit(limited.origin, busy, REQUESTS.speech);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another user is not held back by the first one.
    expect((await call(limited.origin, other, 'GET', '/api/me')).status).toBe(200);
    // The refused submission spent no token (read through the unlimited app).
    expect(await tokens(server.origin, busy)).toEqual({ image: 1, video: 1, speech: 2 });
  });
});
