import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { createAdminUser, createTestUser, type TestUser } from './support/users';

/** Token sync (spec §7): POST /api/session with a fresh ID token opens the app's session; DELETE ends it. */
let context: TestContext;
let server: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  [admin, member] = await Promise.all([createAdminUser(), createTestUser()]);
  server = await context.start();
});
afterAll(() => context.cleanup());

const openSession = (headers: Record<string, string>) =>
  fetch(`${server.origin}/api/session`, { method: 'POST', headers });
const closeSession = (cookie?: string) =>
  fetch(`${server.origin}/api/session`, { method: 'DELETE', headers: cookie === undefined ? {} : { cookie } });
const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0]!;

/** An ID token as the Auth emulator mints them (unsigned), issued `ageSeconds` ago. */
function aged(user: TestUser, ageSeconds: number): string {
  const claims = JSON.parse(Buffer.from(user.idToken.split('.')[1]!, 'base64url').toString()) as { iat: number };
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...claims, iat: claims.iat - ageSeconds })}.`;
}

describe('POST /api/session', () => {
  it('opens a session behind an HttpOnly, SameSite=Strict cookie for the whole origin', async () => {
    const response = await openSession(bearer(member));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { uid: string; expiresAt: string };
    expect(body.uid).toBe(member.uid);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    const header = response.headers.get('set-cookie')!;
    expect(header).toMatch(/^mediagen_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Strict/);
  });

  it('refuses an ID token more than 5 minutes old, and a missing one, and opens nothing', async () => {
    const stale = await openSession({ authorization: `Bearer ${aged(member, 301)}` });
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({
      error: { code: 'TOKEN_TOO_OLD', message: expect.stringContaining('under 5 minutes old') },
    });
    expect(stale.headers.get('set-cookie')).toBeNull();
    // The control: the same token, 4 minutes old, is taken.
    expect((await openSession({ authorization: `Bearer ${aged(member, 240)}` })).status).toBe(200);
    expect((await openSession({})).status).toBe(401);
  });

  it("opens the queue UI for an admin signed in to the app, and not for anyone else's session", async () => {
    const adminCookie = cookieOf(await openSession(bearer(admin)));
    expect((await fetch(`${server.origin}/admin/queues/api/queues`, { headers: { cookie: adminCookie } })).status).toBe(
      200,
    );
    const memberCookie = cookieOf(await openSession(bearer(member)));
    expect(
      (await fetch(`${server.origin}/admin/queues/api/queues`, { headers: { cookie: memberCookie } })).status,
    ).toBe(403);
  });
});

describe('DELETE /api/session', () => {
  it('ends the session on the server and clears the cookie; without a cookie it changes nothing', async () => {
    const cookie = cookieOf(await openSession(bearer(admin)));
    const closed = await closeSession(cookie);
    expect(closed.status).toBe(204);
    expect(closed.headers.get('set-cookie')).toMatch(/^mediagen_session=; Path=\/; Max-Age=0; HttpOnly/);
    // The old cookie opens nothing any more.
    expect((await fetch(`${server.origin}/admin/queues/api/queues`, { headers: { cookie } })).status).toBe(401);
    expect((await closeSession()).status).toBe(204);
  });
});
