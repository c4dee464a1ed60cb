import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, newApiKeySecret, openDatabase } from '@mediagen/core';
import { DAY_MS, MAX_API_KEYS_PER_ACCOUNT, type ApiKeyScope, type PlanId } from '@mediagen/shared';
import { rateLimitNamespace } from '../src/routes/api';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { speechRequest } from './support/requests';
import { createTestUser, type TestUser } from './support/users';

/**
 * Personal API keys (issue 39): made and revoked with an ID token, used as `Authorization: Bearer <key>`
 * by a program that then acts as the key's owner, within the key's scopes, under limits it can read.
 */
let context: TestContext;
let server: TestApp;

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
});
afterAll(() => context.cleanup());

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever shape a route answers
  body: any;
}

/** One request to `origin` with `bearer` (an ID token or a key), as curl would send it. */
async function call(
  origin: string,
  bearer: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

async function userOnPlan(plan: PlanId, on: TestApp = server): Promise<TestUser> {
  const user = await createTestUser();
  await on.app.plans.set(user.uid, plan, 'api keys test');
  return user;
}

async function createKey(
  user: TestUser,
  scopes: ApiKeyScope[] = ['generate', 'read'],
  on: TestApp = server,
  extra: { expiresInDays?: number } = {},
): Promise<string> {
  const created = await call(on.origin, user.idToken, 'POST', '/api/keys', { name: 'CI', scopes, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.secret as string;
}

const unauthenticated = { error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' } };

describe('making, listing and revoking keys (ID token only)', () => {
  it('shows the secret once, lists the key without it, and a revoked key is gone from the list and refused', async () => {
    const user = await userOnPlan('enterprise');
    const created = await call(server.origin, user.idToken, 'POST', '/api/keys', {
      name: 'Nightly batch',
      scopes: ['read'],
      expiresInDays: 30,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^mgk_[0-9A-Za-z]{38}$/);
    expect(created.body).toMatchObject({ name: 'Nightly batch', scopes: ['read'], lastFour: secret.slice(-4) });
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(30 * DAY_MS);

    const listed = await call(server.origin, user.idToken, 'GET', '/api/keys');
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ apiAccess: true, maxKeys: MAX_API_KEYS_PER_ACCOUNT });
    expect(listed.body.keys).toEqual([
      {
        id: created.body.id,
        name: 'Nightly batch',
        lastFour: secret.slice(-4),
        scopes: ['read'],
        createdAt: created.body.createdAt,
        lastUsedAt: null,
        expiresAt: created.body.expiresAt,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    expect((await call(server.origin, secret, 'GET', '/api/me')).status).toBe(200);
    const used = await call(server.origin, user.idToken, 'GET', '/api/keys');
    expect(used.body.keys[0].lastUsedAt).not.toBeNull();

    expect((await call(server.origin, user.idToken, 'DELETE', `/api/keys/${created.body.id}`)).status).toBe(204);
    expect((await call(server.origin, user.idToken, 'GET', '/api/keys')).body.keys).toEqual([]);
    const refused = await call(server.origin, secret, 'GET', '/api/me');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(unauthenticated);
    // Revoking again, or another account's key, finds nothing.
    expect((await call(server.origin, user.idToken, 'DELETE', `/api/keys/${created.body.id}`)).status).toBe(404);
  });

  it("cannot revoke another account's key", async () => {
    const owner = await userOnPlan('enterprise');
    const other = await userOnPlan('enterprise');
    const secret = await createKey(owner);
    const [key] = (await call(server.origin, owner.idToken, 'GET', '/api/keys')).body.keys;
    expect((await call(server.origin, other.idToken, 'DELETE', `/api/keys/${key.id}`)).status).toBe(404);
    expect((await call(server.origin, secret, 'GET', '/api/me')).status).toBe(200);
  });

  it('refuses bad input with 400 in the one error shape and makes nothing', async () => {
    const user = await userOnPlan('enterprise');
    for (const body of [
      { name: '', scopes: ['read'] },
      { name: 'x'.repeat(61), scopes: ['read'] },
      { name: 'ok', scopes: [] },
      { name: 'ok', scopes: ['admin'] },
      { name: 'ok', scopes: ['read', 'read'] },
      { name: 'ok', scopes: ['read'], expiresInDays: 0 },
      { name: 'ok', scopes: ['read'], expiresInDays: 366 },
      { name: 'ok', scopes: ['read'], owner: 'someone-else' },
      { name: 'line\u0000break', scopes: ['read'] },
    ]) {
      const refused = await call(server.origin, user.idToken, 'POST', '/api/keys', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_REQUEST');
    }
    expect((await call(server.origin, user.idToken, 'GET', '/api/keys')).body.keys).toEqual([]);
  });

  it('refuses a plan without API access with 403 NO_API_ACCESS, and lists its (empty) keys', async () => {
    const user = await createTestUser();
    const refused = await call(server.origin, user.idToken, 'POST', '/api/keys', { name: 'x', scopes: ['read'] });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('NO_API_ACCESS');
    const listed = await call(server.origin, user.idToken, 'GET', '/api/keys');
    expect(listed.body).toEqual({ apiAccess: false, maxKeys: MAX_API_KEYS_PER_ACCOUNT, keys: [] });
  });

  it(`holds at most ${MAX_API_KEYS_PER_ACCOUNT} keys: the next is 409 TOO_MANY_API_KEYS until one is revoked`, async () => {
    const user = await userOnPlan('enterprise');
    await Promise.all(Array.from({ length: MAX_API_KEYS_PER_ACCOUNT }, () => createKey(user, ['read'])));
    const refused = await call(server.origin, user.idToken, 'POST', '/api/keys', {
      name: 'one more',
      scopes: ['read'],
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TOO_MANY_API_KEYS');
    const { keys } = (await call(server.origin, user.idToken, 'GET', '/api/keys')).body;
    expect(keys).toHaveLength(MAX_API_KEYS_PER_ACCOUNT);
    await call(server.origin, user.idToken, 'DELETE', `/api/keys/${keys[0].id}`);
    await createKey(user, ['read']);
  });
});

describe('a key acts as its owner, within its scopes', () => {
  it("generates as its owner: the owner's token is charged and the web app sees the generation", async () => {
    const user = await userOnPlan('enterprise');
    const key = await createKey(user, ['generate', 'read']);
    const before = (await call(server.origin, user.idToken, 'GET', '/api/me')).body.tokens.speech as number;

    const submitted = await call(server.origin, key, 'POST', '/api/generations', speechRequest('From a program'));
    expect(submitted.status).toBe(202);
    expect((await call(server.origin, key, 'GET', `/api/generations/${submitted.body.id}`)).body.id).toBe(
      submitted.body.id,
    );
    const seen = await call(server.origin, user.idToken, 'GET', `/api/generations/${submitted.body.id}`);
    expect(seen.status).toBe(200);
    expect((await call(server.origin, user.idToken, 'GET', '/api/me')).body.tokens.speech).toBe(before - 1);
    expect((await call(server.origin, key, 'GET', '/api/me')).body.uid).toBe(user.uid);
  });

  it('a read key cannot generate, cancel or delete (403 API_KEY_SCOPE_MISSING); a generate key cannot read', async () => {
    const user = await userOnPlan('enterprise');
    const readKey = await createKey(user, ['read']);
    const generateKey = await createKey(user, ['generate']);
    const made = await call(server.origin, user.idToken, 'POST', '/api/generations', speechRequest());
    const before = (await call(server.origin, user.idToken, 'GET', '/api/me')).body.tokens.speech as number;

    for (const [method, path, body] of [
      ['POST', '/api/generations', speechRequest()],
      ['POST', `/api/generations/${made.body.id}/cancel`],
      ['POST', `/api/generations/${made.body.id}/again`],
      ['DELETE', `/api/generations/${made.body.id}`],
    ] as const) {
      const refused = await call(server.origin, readKey, method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'API_KEY_SCOPE_MISSING',
        message: 'This API key does not have the scope this request needs: generate.',
      });
    }
    expect((await call(server.origin, readKey, 'GET', '/api/generations')).status).toBe(200);
    expect((await call(server.origin, user.idToken, 'GET', '/api/me')).body.tokens.speech).toBe(before);
    expect((await call(server.origin, user.idToken, 'GET', `/api/generations/${made.body.id}`)).body.status).toBe(
      'queued',
    );

    const unread = await call(server.origin, generateKey, 'GET', `/api/generations/${made.body.id}`);
    expect(unread.status).toBe(403);
    expect(unread.body.error.code).toBe('API_KEY_SCOPE_MISSING');
    expect((await call(server.origin, generateKey, 'POST', `/api/generations/${made.body.id}/cancel`)).status).toBe(
      200,
    );
  });

  it('never opens key management, sessions, billing, account deletion, the support form or the admin API', async () => {
    const user = await userOnPlan('enterprise');
    const key = await createKey(user, ['generate', 'read']);
    for (const [method, path, body] of [
      ['GET', '/api/keys'],
      ['POST', '/api/keys', { name: 'from a key', scopes: ['read'] }],
      ['DELETE', '/api/keys/whatever'],
      ['POST', '/api/session'],
      ['DELETE', '/api/me', { confirm: true }],
      ['GET', '/api/billing'],
      ['POST', '/api/billing/checkout', { plan: 'pro', period: 'monthly' }],
      ['POST', '/api/support', { topic: 'other', message: 'hello' }],
    ] as const) {
      const refused = await call(server.origin, key, method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error.code).toBe('API_KEY_NOT_ALLOWED');
    }
    expect((await call(server.origin, key, 'GET', '/admin/api/support')).status).toBe(401);
    expect((await call(server.origin, key, 'POST', '/admin/session')).status).toBe(401);
    expect((await call(server.origin, user.idToken, 'GET', '/api/me')).status).toBe(200);
  });

  it('a key of a plan that lost API access is refused (403 NO_API_ACCESS) but kept, and works again after an upgrade', async () => {
    const user = await userOnPlan('enterprise');
    const key = await createKey(user, ['read']);
    await server.app.plans.set(user.uid, 'pro', 'downgrade');
    const refused = await call(server.origin, key, 'GET', '/api/me');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('NO_API_ACCESS');
    const listed = await call(server.origin, user.idToken, 'GET', '/api/keys');
    expect(listed.body.apiAccess).toBe(false);
    expect(listed.body.keys).toHaveLength(1);
    await server.app.plans.set(user.uid, 'enterprise', 'upgrade');
    expect((await call(server.origin, key, 'GET', '/api/me')).status).toBe(200);
  });

  it("goes with its account: a closed account's key is 401", async () => {
    const user = await userOnPlan('enterprise');
    const key = await createKey(user, ['read']);
    expect((await call(server.origin, user.idToken, 'DELETE', '/api/me', { confirm: true })).status).toBe(204);
    expect((await call(server.origin, key, 'GET', '/api/me')).status).toBe(401);
  });
});

describe('refusals that do not say why', () => {
  it('answers a malformed, unknown, revoked or expired key alike: 401 UNAUTHENTICATED', async () => {
    let now = Date.now();
    const clocked = await context.start({}, { clock: () => now });
    const user = await userOnPlan('enterprise', clocked);
    const expiring = await createKey(user, ['read'], clocked, { expiresInDays: 1 });
    const revoked = await createKey(user, ['read'], clocked);
    const [revokedKey] = (await call(clocked.origin, user.idToken, 'GET', '/api/keys')).body.keys.filter(
      (key: { lastFour: string }) => key.lastFour === revoked.slice(-4),
    );
    await call(clocked.origin, user.idToken, 'DELETE', `/api/keys/${revokedKey.id}`);
    expect((await call(clocked.origin, expiring, 'GET', '/api/me')).status).toBe(200);
    now += DAY_MS + 1000;

    const badChecksum = `${expiring.slice(0, -1)}${expiring.endsWith('0') ? '1' : '0'}`;
    for (const key of ['mgk_short', badChecksum, newApiKeySecret(), revoked, expiring]) {
      const refused = await call(clocked.origin, key, 'GET', '/api/me');
      expect(refused.status, key).toBe(401);
      expect(refused.body).toEqual(unauthenticated);
    }
  });

  it('refuses a key whose checksum fails before any database read', async () => {
    // Nothing listens there: any read would reject.
    const database = openDatabase('postgres://postgres@127.0.0.1:1/nowhere', { maxConnections: 1 });
    const keys = new ApiKeys(database.db, { hmacSecret: 'k'.repeat(40) });
    const good = newApiKeySecret();
    const tampered = `${good.slice(0, 10)}${good[10] === 'a' ? 'b' : 'a'}${good.slice(11)}`;
    await expect(keys.verify(tampered)).resolves.toBeNull();
    await expect(keys.verify('mgk_not-even-the-right-length')).resolves.toBeNull();
    await expect(keys.verify(good)).rejects.toThrow();
    await database.close();
  });
});

describe('revocation on every server', () => {
  it('takes effect at once on another server sharing the database and Redis', async () => {
    const other = await context.start();
    const user = await userOnPlan('enterprise');
    const key = await createKey(user, ['read']);
    expect((await call(other.origin, key, 'GET', '/api/me')).status).toBe(200);
    expect((await call(server.origin, key, 'GET', '/api/me')).status).toBe(200);
    const [listed] = (await call(server.origin, user.idToken, 'GET', '/api/keys')).body.keys;
    expect((await call(server.origin, user.idToken, 'DELETE', `/api/keys/${listed.id}`)).status).toBe(204);
    expect((await call(other.origin, key, 'GET', '/api/me')).status).toBe(401);
    expect((await call(server.origin, key, 'GET', '/api/me')).status).toBe(401);
  });
});

describe('limits a program can read', () => {
  const LIMIT = 4;
  let limited: TestApp;
  beforeAll(async () => {
    limited = await context.start({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });

  it('counts a key apart from its owner, says what is left in RateLimit fields, and 429 says when to retry', async () => {
    const user = await userOnPlan('enterprise', limited);
    const key = await createKey(user, ['read'], limited);
    const first = await call(limited.origin, key, 'GET', '/api/me');
    expect(first.headers.get('ratelimit-policy')).toBe(`"default";q=${LIMIT};w=60`);
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${LIMIT - 1};t=(60|[1-5]?[0-9])$`));
    expect(first.headers.get('ratelimit-limit')).toBeNull();
    for (let request = 2; request <= LIMIT; request += 1) {
      expect((await call(limited.origin, key, 'GET', '/api/me')).status).toBe(200);
    }
    const refused = await call(limited.origin, key, 'GET', '/api/me');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    // The owner's web session has a counter of its own (it made the key: 1 request so far).
    expect((await call(limited.origin, user.idToken, 'GET', '/api/me')).status).toBe(200);
  });

  it('counts bad keys against the address they come from, and rate limits it', async () => {
    // Every server of this file counts 127.0.0.1 in one Redis counter, which earlier tests' bad keys raised.
    await context.redis.del(`${rateLimitNamespace(context.prefix)}ip:127.0.0.1`);
    const answers: number[] = [];
    for (let request = 0; request <= LIMIT; request += 1) {
      answers.push((await call(limited.origin, newApiKeySecret(), 'GET', '/api/me')).status);
    }
    expect(answers.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(answers[LIMIT]).toBe(429);
  });
});

describe('Idempotency-Key with keys', () => {
  it('shares the account’s idempotency space: same key and body replays, another body is 422', async () => {
    const user = await userOnPlan('enterprise');
    const key = await createKey(user, ['generate', 'read']);
    const headers = { 'idempotency-key': 'batch-7-item-3' };
    const first = await call(server.origin, key, 'POST', '/api/generations', speechRequest('Once'), headers);
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call(server.origin, key, 'POST', '/api/generations', speechRequest('Once'), headers);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const fromWeb = await call(server.origin, user.idToken, 'POST', '/api/generations', speechRequest('Once'), headers);
    expect(fromWeb.body.id).toBe(first.body.id);
    const other = await call(server.origin, key, 'POST', '/api/generations', speechRequest('Twice'), headers);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const list = (await call(server.origin, user.idToken, 'GET', '/api/generations')).body.items;
    expect(list).toHaveLength(1);
  });
});
