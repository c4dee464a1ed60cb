import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SESSION_COOKIE, APP_SESSION_COOKIE, readCookie } from '../src/auth/cookie-sessions';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { emulatorIdentityAdmin, nextSecond } from './support/identity-admin';
import { createAdminUser, type TestUser } from './support/users';

/**
 * How long a cookie session (the admin UI's, or the app's from token sync) stands: it is opened only by a
 * token the identity service confirms at that moment, it ends when its account is revoked, disabled,
 * deleted or (an admin session) loses admin rights, and the app's session opens the queue UI for no
 * longer than an admin session would last.
 */
let context: TestContext;
const identities = emulatorIdentityAdmin();

beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context.cleanup();
});

const post = (server: TestApp, path: string, user: TestUser) =>
  fetch(`${server.origin}${path}`, { method: 'POST', headers: bearer(user) });
const me = async (server: TestApp, user: TestUser) =>
  (await fetch(`${server.origin}/api/me`, { headers: bearer(user) })).status;
const queues = async (server: TestApp, cookie: string) =>
  (await fetch(`${server.origin}/admin/queues/api/queues`, { headers: { cookie } })).status;

/** The `name=value` pair a session route set. */
function cookieOf(response: Response): string {
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

describe('a session is opened only by a sign-in the identity service confirms now', () => {
  it('a revoked token opens neither session, while the API still trusts its last read of the account', async () => {
    const server = await context.start();
    const admin = await createAdminUser();
    expect(await me(server, admin)).toBe(200);

    await nextSecond();
    await identities().revokeRefreshTokens(admin.uid);
    // The API may trust the account as it read it for AUTH_REVALIDATE_SECONDS (60 s here)...
    expect(await me(server, admin)).toBe(200);
    // ...but opening a session asks the identity service again.
    for (const path of ['/api/session', '/admin/session']) {
      const refused = await post(server, path, admin);
      expect(refused.status, path).toBe(401);
      expect(await refused.json(), path).toEqual({
        error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' },
      });
      expect(refused.headers.get('set-cookie'), path).toBeNull();
    }
    expect((await fetch(`${server.origin}/admin/queues/api/queues`, { headers: bearer(admin) })).status).toBe(401);
  });
});

describe('an app session opens the queue UI only as long as an admin session would last', () => {
  it('refuses it ADMIN_SESSION_TTL_SECONDS after it was opened, and keeps it for the app', async () => {
    let laterMs = 0;
    const server = await context.start({ ADMIN_SESSION_TTL_SECONDS: '60' }, { clock: () => Date.now() + laterMs });
    const admin = await createAdminUser();
    const cookie = cookieOf(await post(server, '/api/session', admin));
    expect(await queues(server, cookie)).toBe(200);

    laterMs = 59_000;
    expect(await queues(server, cookie)).toBe(200);
    laterMs = 61_000;
    expect(await queues(server, cookie)).toBe(401);
    // The app's session itself is not over: it is the admin rights it lent that are.
    expect(await server.app.appSessions.find(readCookie(cookie, APP_SESSION_COOKIE))).not.toBeNull();
  });
});

describe('sessions end when the server reads the account again and finds it ended', () => {
  const REVALIDATE = { AUTH_REVALIDATE_SECONDS: '1' };

  /** An admin with both sessions open, on a server that reads accounts again after a second. */
  async function adminWithSessions() {
    const server = await context.start(REVALIDATE);
    const admin = await createAdminUser();
    const appCookie = cookieOf(await post(server, '/api/session', admin));
    const adminCookie = cookieOf(await post(server, '/admin/session', admin));
    const sessions = {
      app: () => server.app.appSessions.find(readCookie(appCookie, APP_SESSION_COOKIE)),
      admin: () => server.app.adminSessions.find(readCookie(adminCookie, ADMIN_SESSION_COOKIE)),
    };
    expect(await sessions.app()).not.toBeNull();
    expect(await sessions.admin()).not.toBeNull();
    return { server, admin, sessions };
  }

  /** The user goes on using the API with their bearer token (never the cookies), so the server reads the account. */
  const whileInUse = (server: TestApp, user: TestUser, ended: () => Promise<unknown>) =>
    expect
      .poll(
        async () => {
          await me(server, user);
          return ended();
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBeNull();

  it('a removed admin claim ends the admin session; the app session stays', async () => {
    const { server, admin, sessions } = await adminWithSessions();
    await identities().setCustomUserClaims(admin.uid, {});
    await whileInUse(server, admin, sessions.admin);
    expect(await sessions.app()).not.toBeNull();
  });

  it.each([
    ['revoked', (uid: string) => identities().revokeRefreshTokens(uid)],
    ['disabled', (uid: string) => identities().updateUser(uid, { disabled: true })],
    ['deleted', (uid: string) => identities().deleteUser(uid)],
  ])('a %s account ends both sessions', async (_ending, end) => {
    const { server, admin, sessions } = await adminWithSessions();
    await nextSecond();
    await end(admin.uid);
    await whileInUse(server, admin, sessions.app);
    expect(await sessions.admin()).toBeNull();
  });
});
