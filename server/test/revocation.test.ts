import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectUserSocket, createTestContext, type TestApp, type TestContext, type TestSocket } from './support/app';
import { EMULATOR_PROJECT_ID } from '@mediagen/testing';
import { apiClient, speechRequest } from './support/requests';
import { authEmulatorHost } from '@mediagen/testing/vitest';
import { createTestUser, signIn, type TestUser } from './support/users';

/**
 * A deleted, disabled or revoked account loses the API and its sockets within AUTH_REVALIDATE_SECONDS
 * (1 s here; 60 s by default), even though its ID token is still signed and unexpired.
 */
const REVALIDATE_SECONDS = 1;
/** The documented bound: the account check may be that old, and sockets are swept twice as often. */
const BOUND_MS = REVALIDATE_SECONDS * 1000 * 2 + 1000;

let context: TestContext;
let server: TestApp;
let firebase: App;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start({ AUTH_REVALIDATE_SECONDS: String(REVALIDATE_SECONDS) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = authEmulatorHost();
  firebase = initializeApp({ projectId: EMULATOR_PROJECT_ID }, `revocation-test-${randomUUID()}`);
});
afterEach(() => {
  sockets.splice(0).forEach((socket) => socket.close());
});
afterAll(async () => {
  await context.cleanup();
  await deleteApp(firebase);
});

/** Revocation has second precision (as Firebase's own check): act in a later second than the sign-in. */
async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  await vi.waitUntil(() => Math.floor(Date.now() / 1000) > second, { timeout: 2000, interval: 20 });
}

function refusedHandshake(token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = io(server.origin, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    socket.once('connect', () => {
      socket.close();
      reject(new Error('the handshake was accepted'));
    });
    socket.once('connect_error', (error) => {
      socket.close();
      resolve(error.message);
    });
  });
}

const ENDINGS: [string, (user: TestUser) => Promise<unknown>][] = [
  ['deleted', (user) => getAuth(firebase).deleteUser(user.uid)],
  ['disabled', (user) => getAuth(firebase).updateUser(user.uid, { disabled: true })],
  ['revoked', (user) => getAuth(firebase).revokeRefreshTokens(user.uid)],
];

describe('an account that ends loses the API and its sockets within the bound', () => {
  it.each(ENDINGS)('%s', async (_ending, end) => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    expect((await api.me()).status).toBe(200);
    const { socket } = await connectUserSocket(server.origin, user.idToken);
    sockets.push(socket);

    await nextSecond();
    await end(user);
    const endedAt = Date.now();
    await expect.poll(async () => (await api.me()).status, { timeout: BOUND_MS, interval: 100 }).toBe(401);
    await expect.poll(() => socket.connected, { timeout: BOUND_MS, interval: 50 }).toBe(false);
    expect(Date.now() - endedAt).toBeLessThan(BOUND_MS);

    const submit = await api.submit(speechRequest());
    expect(submit.status).toBe(401);
    expect(await refusedHandshake(user.idToken)).toBe('UNAUTHENTICATED');
  });

  it('a revoked user who signs in again is welcome back', async () => {
    const user = await createTestUser();
    await nextSecond();
    await getAuth(firebase).revokeRefreshTokens(user.uid);
    await expect.poll(async () => (await apiClient(server.origin, user).me()).status, { timeout: BOUND_MS }).toBe(401);
    await nextSecond();
    user.idToken = await signIn(user.email);
    expect((await apiClient(server.origin, user).me()).status).toBe(200);
  });
});
