import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectUserSocket, createTestContext, socketRefusal, type TestContext, type TestSocket } from './support/app';
import { emulatorIdentityAdmin, nextSecond } from './support/identity-admin';
import { apiClient, speechRequest } from './support/requests';
import { createTestUser, signIn, type TestUser } from './support/users';

/**
 * A deleted, disabled or revoked account loses the API and its sockets within AUTH_REVALIDATE_SECONDS
 * (1 s here; 60 s by default), even though its ID token is still signed and unexpired. Each test starts
 * a server of its own (nothing it trusts comes from another test) and waits for the states it expects,
 * with time to spare on a loaded host: the bound itself is the server's setting, not a stopwatch here.
 */
const REVALIDATE = { AUTH_REVALIDATE_SECONDS: '1' };
/** Far above the 1 s the server is set to: only a server that never re-reads the account fails this. */
const WAIT = { timeout: 15_000, interval: 100 };

let context: TestContext;
const identities = emulatorIdentityAdmin();
const sockets: TestSocket[] = [];

beforeAll(async () => {
  context = await createTestContext();
});
afterEach(() => {
  sockets.splice(0).forEach((socket) => socket.close());
});
afterAll(async () => {
  await context.cleanup();
});

const ENDINGS: [string, (user: TestUser) => Promise<unknown>][] = [
  ['deleted', (user) => identities().deleteUser(user.uid)],
  ['disabled', (user) => identities().updateUser(user.uid, { disabled: true })],
  ['revoked', (user) => identities().revokeRefreshTokens(user.uid)],
];

describe('an account that ends loses the API and its sockets', () => {
  it.each(ENDINGS)('%s', async (_ending, end) => {
    const server = await context.start(REVALIDATE);
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    expect((await api.me()).status).toBe(200);
    const { socket } = await connectUserSocket(server.origin, user.idToken);
    sockets.push(socket);

    await nextSecond();
    await end(user);
    await expect.poll(async () => (await api.me()).status, WAIT).toBe(401);
    await expect.poll(() => socket.connected, WAIT).toBe(false);

    const submit = await api.submit(speechRequest());
    expect(submit.status).toBe(401);
    expect(await socketRefusal(server.origin, user.idToken)).toBe('UNAUTHENTICATED');
  });

  it('a revoked user who signs in again is welcome back', async () => {
    const server = await context.start(REVALIDATE);
    const user = await createTestUser();
    await nextSecond();
    await identities().revokeRefreshTokens(user.uid);
    await expect.poll(async () => (await apiClient(server.origin, user).me()).status, WAIT).toBe(401);
    await nextSecond();
    user.idToken = await signIn(user.email);
    expect((await apiClient(server.origin, user).me()).status).toBe(200);
  });
});
