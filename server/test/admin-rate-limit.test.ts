import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { startIdentityGateway, type IdentityGateway } from './support/identity-gateway';
import { createAdminUser, createTestUser, type TestUser } from './support/users';

/**
 * /admin/* asks the identity service about the caller's account on every request, so its callers are
 * counted first: RATE_LIMIT_PER_MINUTE per user (per IP before sign-in), apart from /api's budget, and
 * a request past it reaches no identity-service read. The identity service is the Auth emulator behind a
 * gateway that counts the account reads.
 */
const LIMIT = 5;
let context: TestContext;
let gateway: IdentityGateway;
let server: TestApp;
let accountReads = 0;

beforeAll(async () => {
  gateway = await startIdentityGateway((_outgoing, pass, incoming) => {
    if (incoming.url?.includes('accounts:lookup') === true) accountReads += 1;
    pass();
  });
  context = await createTestContext();
  server = await context.start({
    FIREBASE_AUTH_EMULATOR_HOST: gateway.host,
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    // Each test that calls anonymously does so from an address of its own.
    TRUST_PROXY: 'true',
  });
});
afterAll(async () => {
  await context?.cleanup();
  await gateway?.close();
});

const queues = (headers: Record<string, string> = {}) => fetch(`${server.origin}/admin/queues/api/queues`, { headers });

async function statuses(count: number, headers: Record<string, string> = {}): Promise<number[]> {
  const answered: number[] = [];
  for (let index = 0; index < count; index += 1) answered.push((await queues(headers)).status);
  return answered;
}

describe('/admin/* is rate limited', () => {
  it('per user, counted before any identity-service read, with a clear 429', async () => {
    const member: TestUser = await createTestUser();
    expect(await statuses(LIMIT, bearer(member))).toEqual(Array(LIMIT).fill(403));

    // The gateway sees the account reads (the five answered requests made some), so none below is telling.
    const readsBefore = accountReads;
    expect(readsBefore).toBeGreaterThan(0);
    expect(await statuses(3, bearer(member))).toEqual([429, 429, 429]);
    expect(accountReads).toBe(readsBefore);
    const refused = await queues(bearer(member));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: 'Too many requests. Please slow down and try again shortly.' },
    });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // The admin API and the session route share the budget.
    expect((await fetch(`${server.origin}/admin/api/spend`, { headers: bearer(member) })).status).toBe(429);
    expect((await fetch(`${server.origin}/admin/session`, { method: 'POST', headers: bearer(member) })).status).toBe(
      429,
    );
    expect(accountReads).toBe(readsBefore);

    // The app's own budget is another one.
    expect((await fetch(`${server.origin}/api/me`, { headers: bearer(member) })).status).toBe(200);
  });

  it('an admin is not held back by another user, and a session cookie counts for its user', async () => {
    const admin = await createAdminUser();
    const session = await fetch(`${server.origin}/admin/session`, { method: 'POST', headers: bearer(admin) });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(await statuses(LIMIT - 1, { cookie })).toEqual(Array(LIMIT - 1).fill(200));
    expect((await queues(bearer(admin))).status).toBe(429);
  });

  it('per IP before sign-in', async () => {
    const from = (address: string) => ({ 'x-forwarded-for': address });
    expect(await statuses(LIMIT + 2, from('203.0.113.7'))).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    expect((await fetch(`${server.origin}/admin`, { headers: from('203.0.113.7') })).status).toBe(429);
    expect((await queues(from('203.0.113.8'))).status).toBe(401);
  });
});
