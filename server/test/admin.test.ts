import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SESSION_COOKIE, AdminSessionSigner } from '../src/admin/admin-session';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { EMULATOR_PROJECT_ID } from './support/auth-emulator';
import { authEmulatorHost, createTestUser, signIn, type TestUser } from './support/users';

/** Bull Board at /admin/queues, its API, and the admin session, against the real auth emulator. */
let context: TestContext;
let server: TestApp;
let firebase: App;
let claimAdmin: TestUser;
let listedAdmin: TestUser;
let member: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  [claimAdmin, listedAdmin, member] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
  process.env.FIREBASE_AUTH_EMULATOR_HOST = authEmulatorHost();
  firebase = initializeApp({ projectId: EMULATOR_PROJECT_ID }, `admin-test-${randomUUID()}`);
  // The Admin SDK sets the claim in the emulator exactly as in production; a fresh sign-in carries it.
  await getAuth(firebase).setCustomUserClaims(claimAdmin.uid, { admin: true });
  claimAdmin.idToken = await signIn(claimAdmin.email);
  server = await context.start({ ADMIN_EMAILS: ` Other@example.test, ${listedAdmin.email.toUpperCase()} ` });
});
afterAll(async () => {
  await context.cleanup();
  await deleteApp(firebase);
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

  it('anonymous with a bad token or a forged cookie: 401', async () => {
    expect((await get('/admin/queues/api/queues', { authorization: 'Bearer not-a-token' })).status).toBe(401);
    const forged = new AdminSessionSigner('some-other-secret', 600).issue(claimAdmin.uid).value;
    expect((await get('/admin/queues/api/queues', { cookie: `${ADMIN_SESSION_COOKIE}=${forged}` })).status).toBe(401);
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

  it('a session cookie expires', async () => {
    const expired = new AdminSessionSigner(server.app.config.admin.sessionSecret, 60, () => Date.now() - 120_000).issue(
      listedAdmin.uid,
    ).value;
    expect((await get('/admin/queues/api/queues', { cookie: `${ADMIN_SESSION_COOKIE}=${expired}` })).status).toBe(401);
  });
});
