import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, socketRefusal, type TestApp, type TestContext } from './support/app';
import { createTestUser, type TestUser } from './support/users';

let context: TestContext;
let server: TestApp;
let user: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
  user = await createTestUser();
});
afterAll(() => context.cleanup());

describe('health', () => {
  it('GET /healthz answers ok', async () => {
    const response = await fetch(`${server.origin}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers ok while Redis, PostgreSQL and the update stream are up', async () => {
    const response = await fetch(`${server.origin}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz and POST answer 503 NOT_READY when Redis is gone', async () => {
    const broken = await context.start();
    broken.app.redis.disconnect();
    const ready = await fetch(`${broken.origin}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { error: { code: string } }).error.code).toBe('NOT_READY');

    const submitted = await fetch(`${broken.origin}/api/generations`, {
      method: 'POST',
      headers: { ...bearer(user), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'speech', input: 'hello', voice: 'nova', language: 'en-US' }),
    });
    expect(submitted.status).toBe(503);
    const body = (await submitted.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({
      code: 'NOT_READY',
      message: 'The service is temporarily unavailable. Please try again shortly.',
    });
    await broken.close();
  });
});

describe('authentication', () => {
  it('refuses a request without a token with 401 UNAUTHENTICATED', async () => {
    const response = await fetch(`${server.origin}/api/me`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' },
    });
  });

  it('refuses a bad token with 401', async () => {
    const response = await fetch(`${server.origin}/api/generations`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-real-token', 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'image', prompt: 'a cat' }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a token with another scheme', async () => {
    const response = await fetch(`${server.origin}/api/me`, { headers: { authorization: `Basic ${user.idToken}` } });
    expect(response.status).toBe(401);
  });

  it('accepts a token from the Auth emulator', async () => {
    const response = await fetch(`${server.origin}/api/me`, { headers: bearer(user) });
    expect(response.status).toBe(200);
    const me = (await response.json()) as {
      uid: string;
      email: string;
      tokens: unknown;
      allowance: unknown;
      resetsAt: string;
    };
    expect(me).toMatchObject({
      uid: user.uid,
      email: user.email,
      tokens: { image: 1, video: 1, speech: 2 },
      allowance: { image: 1, video: 1, speech: 2 },
    });
    const days = (Date.parse(me.resetsAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('refuses a socket with a bad token at connect', async () => {
    expect(await socketRefusal(server.origin, 'not-a-real-token')).toBe('UNAUTHENTICATED');
  });

  it('refuses a socket without a token at connect', async () => {
    expect(await socketRefusal(server.origin, undefined)).toBe('UNAUTHENTICATED');
  });
});

describe('errors', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${server.origin}/nowhere`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    const response = await fetch(`${server.origin}/api/generations`, {
      method: 'POST',
      headers: { ...bearer(user), 'content-type': 'application/json' },
      body: '{"kind": "image", ',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });

  it('answers a body over 64 KB with 413', async () => {
    const response = await fetch(`${server.origin}/api/generations`, {
      method: 'POST',
      headers: { ...bearer(user), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'image', prompt: 'x'.repeat(70 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large.' },
    });
  });

  it('sends the security headers on every answer, refusals and unknown routes included', async () => {
    const answers = await Promise.all([
      fetch(`${server.origin}/api/me`, { headers: bearer(user) }),
      fetch(`${server.origin}/api/me`),
      fetch(`${server.origin}/nowhere`),
    ]);
    expect(answers.map((response) => response.status)).toEqual([200, 401, 404]);
    for (const response of answers) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      // The admin pages use inline scripts and styles.
      expect(response.headers.get('content-security-policy')).toBeNull();
    }
  });

  it('allows CORS for the configured origin only', async () => {
    const allowed = await fetch(`${server.origin}/api/me`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const refused = await fetch(`${server.origin}/api/me`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
