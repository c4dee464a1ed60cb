import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SESSION_COOKIE } from '../src/auth/cookie-sessions';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { emulatorIdentityAdmin, nextSecond } from './support/identity-admin';
import { createTestUser, signIn, type TestUser } from './support/users';

/** Bull Board at /admin/queues, its API, and the admin session, against the real auth emulator. */
let context: TestContext;
let server: TestApp;
const identities = emulatorIdentityAdmin();
let claimAdmin: TestUser;
let listedAdmin: TestUser;
let member: TestUser;
let unverified: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  [claimAdmin, listedAdmin, member, unverified] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser(),
    createTestUser(),
  ]);
  // The Admin SDK sets the claim in the emulator exactly as in production; a fresh sign-in carries it.
  await identities().setCustomUserClaims(claimAdmin.uid, { admin: true });
  claimAdmin.idToken = await signIn(claimAdmin.email);
  await identities().updateUser(listedAdmin.uid, { emailVerified: true });
  server = await context.start({
    ADMIN_EMAILS: ` Other@example.test, ${listedAdmin.email.toUpperCase()}, ${unverified.email} `,
  });
});
afterAll(async () => {
  await context.cleanup();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.origin}${path}`, { headers });

async function openSession(user: TestUser): Promise<Response> {
  return fetch(`${server.origin}/admin/session`, { method: 'POST', headers: bearer(user) });
}

function sessionCookie(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  return header.split(';')[0]!;
}

const PROTECTED = [
  '/admin/queues',
  '/admin/queues/api/queues',
  '/admin/queues/api/redis/stats',
  '/admin/queues/static/favicon-32x32.png',
];

describe('/admin/queues refuses anyone but an admin', () => {
  it.each(PROTECTED)('anonymous: 401 on %s', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' },
    });
  });

  it('anonymous with a bad token or a made-up cookie: 401', async () => {
    expect((await get('/admin/queues/api/queues', { authorization: 'Bearer not-a-token' })).status).toBe(401);
    // The old stateless format, signed with the built-in development secret, means nothing any more.
    const forged = `${Buffer.from(claimAdmin.uid).toString('base64url')}.${Math.floor(Date.now() / 1000) + 600}.x`;
    for (const value of [forged, 'A'.repeat(43)]) {
      expect((await get('/admin/queues/api/queues', { cookie: `${ADMIN_SESSION_COOKIE}=${value}` })).status).toBe(401);
    }
  });

  it('a signed-in user who is not an admin: 403, and no session', async () => {
    for (const path of PROTECTED) {
      const response = await get(path, bearer(member));
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    }
    const session = await openSession(member);
    expect(session.status).toBe(403);
    expect(session.headers.get('set-cookie')).toBeNull();
  });

  it('a page navigation without a session gets a pointer to the sign-in page', async () => {
    const response = await get('/admin/queues', { accept: 'text/html' });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('href="/admin"');
  });

  it('the sign-in page itself is public and reveals nothing', async () => {
    const response = await get('/admin');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('/admin/session');
    expect(html).not.toContain('generation-');
  });
});

describe('/admin/queues for an admin', () => {
  it('an admin by custom claim sees the three queues with a bearer token', async () => {
    const response = await get('/admin/queues/api/queues', bearer(claimAdmin));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { queues: { name: string }[] };
    expect(body.queues.map((queue) => queue.name).sort()).toEqual([
      'generation-image',
      'generation-speech',
      'generation-video',
    ]);
  });

  it('an admin listed in ADMIN_EMAILS (any case) gets a session cookie that opens the UI and its API', async () => {
    const session = await openSession(listedAdmin);
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ uid: listedAdmin.uid });
    const setCookie = session.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(new RegExp(`^${ADMIN_SESSION_COOKIE}=`));
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/admin');
    expect(setCookie).toContain('Max-Age=900');
    // Plain http here: Secure would stop the browser from ever sending it back.
    expect(setCookie).not.toContain('Secure');

    const cookie = sessionCookie(session);
    const page = await get('/admin/queues', { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await get('/admin/queues/static/favicon-32x32.png', { cookie })).status).toBe(200);
    const api = await get('/admin/queues/api/queues', { cookie });
    expect(api.status).toBe(200);
    expect(((await api.json()) as { queues: unknown[] }).queues).toHaveLength(3);

    const signedOut = await fetch(`${server.origin}/admin/session`, { method: 'DELETE', headers: { cookie } });
    expect(signedOut.status).toBe(204);
    expect(signedOut.headers.get('set-cookie')).toContain('Max-Age=0');
    // Signing out ends the session on the server: the old cookie, kept by anyone, opens nothing.
    expect((await get('/admin/queues/api/queues', { cookie })).status).toBe(401);
  });

  it('an admin can act on jobs through the API (pause and resume a queue)', async () => {
    const headers = { ...bearer(claimAdmin) };
    const pause = await fetch(`${server.origin}/admin/queues/api/queues/generation-image/pause`, {
      method: 'PUT',
      headers,
    });
    expect(pause.status).toBe(200);
    const queues = (await (await get('/admin/queues/api/queues', headers)).json()) as {
      queues: { name: string; isPaused: boolean }[];
    };
    expect(queues.queues.find((queue) => queue.name === 'generation-image')?.isPaused).toBe(true);
    const resume = await fetch(`${server.origin}/admin/queues/api/queues/generation-image/resume`, {
      method: 'PUT',
      headers,
    });
    expect(resume.status).toBe(200);
  });

  it('a session lives on the server for ADMIN_SESSION_TTL_SECONDS', async () => {
    const session = await openSession(listedAdmin);
    const keys = await context.redis.keys(`${context.prefix}:admin-session:*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttls = await Promise.all(keys.map((key) => context.redis.ttl(key)));
    expect(Math.max(...ttls)).toBeGreaterThan(890);
    expect(Math.max(...ttls)).toBeLessThanOrEqual(900);
    // The cookie holds a random id only: nothing in it names the user.
    expect(sessionCookie(session)).not.toContain(Buffer.from(listedAdmin.uid).toString('base64url'));
  });
});

/** A fresh account with the admin claim, signed in again so its token carries it. */
async function newClaimAdmin(): Promise<TestUser> {
  const user = await createTestUser();
  await identities().setCustomUserClaims(user.uid, { admin: true });
  user.idToken = await signIn(user.email);
  return user;
}

describe('admin access follows the account as it is now', () => {
  it('a listed email is an admin only once it is verified', async () => {
    expect((await get('/admin/queues/api/queues', bearer(unverified))).status).toBe(403);
    expect((await openSession(unverified)).status).toBe(403);
    await identities().updateUser(unverified.uid, { emailVerified: true });
    // The same token: what counts is the account now, not what the token remembers.
    expect((await get('/admin/queues/api/queues', bearer(unverified))).status).toBe(200);
  });

  it('a removed claim closes the queue UI at once, to the old token and to the open session', async () => {
    const admin = await newClaimAdmin();
    const cookie = sessionCookie(await openSession(admin));
    expect((await get('/admin/queues/api/queues', { cookie })).status).toBe(200);

    await identities().setCustomUserClaims(admin.uid, {});
    expect((await get('/admin/queues/api/queues', { cookie })).status).toBe(403);
    expect((await get('/admin/queues/api/queues', bearer(admin))).status).toBe(403);
    // And the session is over: even a restored claim does not bring it back.
    await identities().setCustomUserClaims(admin.uid, { admin: true });
    expect((await get('/admin/queues/api/queues', { cookie })).status).toBe(401);
  });

  it('a disabled, revoked or deleted admin loses the session at once', async () => {
    const [disabled, revoked, deleted] = await Promise.all([newClaimAdmin(), newClaimAdmin(), newClaimAdmin()]);
    const cookies = await Promise.all(
      [disabled, revoked, deleted].map(async (user) => sessionCookie(await openSession(user))),
    );
    // Revocation has second precision (as Firebase's own check): revoke in a later second than the sign-in.
    await nextSecond();
    await identities().updateUser(disabled.uid, { disabled: true });
    await identities().revokeRefreshTokens(revoked.uid);
    await identities().deleteUser(deleted.uid);
    for (const [index, user] of [disabled, revoked, deleted].entries()) {
      expect((await get('/admin/queues/api/queues', { cookie: cookies[index]! })).status).toBe(401);
      expect((await get('/admin/queues/api/queues', bearer(user))).status).toBe(401);
    }
  });
});
