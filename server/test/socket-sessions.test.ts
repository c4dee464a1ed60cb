import { io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthRefreshResult } from '@mediagen/shared';
import { connectUserSocket, createTestContext, type TestApp, type TestContext, type TestSocket } from './support/app';
import { createTestUser, signIn } from './support/users';

let context: TestContext;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  context = await createTestContext();
});
afterEach(() => {
  sockets.splice(0).forEach((socket) => socket.close());
});
afterAll(() => context.cleanup());

async function connect(origin: string, token: string): Promise<TestSocket> {
  const { socket } = await connectUserSocket(origin, token);
  sockets.push(socket);
  return socket;
}

function handshakeError(origin: string, token: string): Promise<{ message: string; data: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = io(origin, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    socket.once('connect', () => {
      socket.close();
      reject(new Error('the handshake was accepted'));
    });
    socket.once('connect_error', (error) => {
      socket.close();
      resolve({ message: error.message, data: (error as Error & { data?: unknown }).data });
    });
  });
}

const expiryOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;

const refresh = (socket: TestSocket, token: string) =>
  new Promise<AuthRefreshResult>((resolve) => socket.emit('auth:refresh', token, resolve));

describe('sockets per user', () => {
  it('are capped across every server, with a clear refusal, and a closed one frees its slot', async () => {
    const [serverA, serverB] = await Promise.all([
      context.start({ SOCKETS_PER_USER: '2' }),
      context.start({ SOCKETS_PER_USER: '2' }),
    ]);
    const user = await createTestUser();
    const first = await connect(serverA.origin, user.idToken);
    await connect(serverB.origin, user.idToken);

    for (const server of [serverA, serverB]) {
      expect(await handshakeError(server.origin, user.idToken)).toEqual({
        message: 'TOO_MANY_CONNECTIONS',
        data: {
          code: 'TOO_MANY_CONNECTIONS',
          message: 'Too many open connections for this account. Close another tab and try again.',
        },
      });
    }
    // Another user is not affected.
    await connect(serverA.origin, (await createTestUser()).idToken);

    first.close();
    await vi.waitUntil(
      async () => {
        const socket = io(serverB.origin, { auth: { token: user.idToken }, transports: ['websocket'], forceNew: true });
        socket.io.opts.reconnection = false;
        const accepted = await new Promise<boolean>((resolve) => {
          socket.once('connect', () => resolve(true));
          socket.once('connect_error', () => resolve(false));
        });
        if (accepted) sockets.push(socket);
        else socket.close();
        return accepted;
      },
      { timeout: 5000, interval: 100 },
    );
  });
});

describe('a socket lives as long as its token', () => {
  it('is closed by the server when its token expires', async () => {
    const user = await createTestUser();
    // The server's clock says the token has a second left.
    const offset = expiryOf(user.idToken) - Date.now() - 1000;
    const server: TestApp = await context.start({}, { clock: () => Date.now() + offset });
    const socket = await connect(server.origin, user.idToken);
    const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await expect.poll(() => socket.connected, { timeout: 5000, interval: 50 }).toBe(false);
    expect(await reason).toBe('io server disconnect');
  });

  it('stays open past the old expiry once the client sends a fresh token, until that one expires', async () => {
    const user = await createTestUser();
    const oldToken = user.idToken;
    // A later token expires later: sign in again two seconds on.
    const second = Math.floor(Date.now() / 1000);
    await vi.waitUntil(() => Math.floor(Date.now() / 1000) >= second + 2, { timeout: 4000, interval: 50 });
    const freshToken = await signIn(user.email);
    expect(expiryOf(freshToken)).toBeGreaterThan(expiryOf(oldToken));

    // The server's clock jumps to a second before the old token's expiry only once the socket is open: set
    // before, a start slower than that second on a loaded host met an expired token and never connected.
    let offset = 0;
    const serverNow = () => Date.now() + offset;
    const server = await context.start({}, { clock: serverNow });
    const socket = await connect(server.origin, oldToken);
    offset = expiryOf(oldToken) - Date.now() - 1000;
    expect(await refresh(socket, freshToken)).toEqual({
      ok: true,
      expiresAt: new Date(expiryOf(freshToken)).toISOString(),
    });

    await vi.waitUntil(() => serverNow() > expiryOf(oldToken) + 300, { timeout: 5000, interval: 50 });
    expect(socket.connected).toBe(true);
    await expect.poll(() => socket.connected, { timeout: 8000, interval: 50 }).toBe(false);
  });

  it("refuses a refresh with another user's token or a bad one, and keeps the socket's own expiry", async () => {
    const [user, other] = await Promise.all([createTestUser(), createTestUser()]);
    const server = await context.start();
    const socket = await connect(server.origin, user.idToken);
    const refused = { ok: false, error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' } };
    expect(await refresh(socket, other.idToken)).toEqual(refused);
    expect(await refresh(socket, 'not-a-token')).toEqual(refused);
    expect(socket.connected).toBe(true);
  });
});
