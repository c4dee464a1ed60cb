import { Manager } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectUserSocket, createTestContext, type TestApp, type TestContext, type TestSocket } from './support/app';
import { sample, scrape } from './support/metrics';
import { createTestUser } from './support/users';

/**
 * A Socket.IO connection starts as an engine.io session that carries no token yet; the client signs in on
 * it afterwards. Sessions not signed in (yet, or ever) are bounded per client address and in all, and are
 * no connected sockets. The clients here are real socket.io clients: a Manager opened without joining a
 * namespace is exactly such a session, held open as long as its client answers pings.
 */
const PER_ADDRESS = 3;
const IN_ALL = 5;

let context: TestContext;
let server: TestApp;
const opened: { close(): void }[] = [];

beforeAll(async () => {
  context = await createTestContext();
});
beforeEach(async () => {
  // A server per test: the places a test's sessions held are not the next test's business.
  server = await context.start({
    SOCKET_PENDING_PER_IP: String(PER_ADDRESS),
    SOCKET_PENDING_MAX: String(IN_ALL),
    // The clients name their address in X-Forwarded-For, so one machine can be several.
    TRUST_PROXY: 'true',
  });
});
afterEach(() => {
  opened.splice(0).forEach((client) => client.close());
});
afterAll(() => context.cleanup());

/** An engine.io session from `address` that never signs in; 'open', or 'refused' at its handshake. */
async function unauthenticated(address: string): Promise<{ outcome: 'open' | 'refused'; close(): void }> {
  const manager = new Manager(server.origin, {
    autoConnect: false,
    reconnection: false,
    transports: ['websocket'],
    extraHeaders: { 'x-forwarded-for': address },
  });
  const outcome = await new Promise<'open' | 'refused'>((resolve) =>
    manager.open((error) => resolve(error === undefined ? 'open' : 'refused')),
  );
  const client = { outcome, close: () => manager.engine?.close() };
  opened.push(client);
  return client;
}

async function outcomes(address: string, count: number): Promise<string[]> {
  const answered: string[] = [];
  for (let index = 0; index < count; index += 1) answered.push((await unauthenticated(address)).outcome);
  return answered;
}

const connectedSockets = async () => sample(await scrape(server.origin), 'mediagen_sockets_connected');

describe('Socket.IO sessions without a valid token', () => {
  it('are bounded per address and in all, and are not counted as connected sockets', async () => {
    expect(await outcomes('198.51.100.1', PER_ADDRESS + 1)).toEqual([...Array(PER_ADDRESS).fill('open'), 'refused']);
    expect(await outcomes('198.51.100.2', 3)).toEqual(['open', 'open', 'refused']);
    expect(await outcomes('198.51.100.3', 1)).toEqual(['refused']);
    expect(await connectedSockets()).toBe(0);

    // A session that goes frees its place.
    opened[0]!.close();
    await expect
      .poll(async () => (await unauthenticated('198.51.100.3')).outcome, { timeout: 5000, interval: 100 })
      .toBe('open');
  });

  it('a signed-in socket is counted, and no longer holds a place of its address', async () => {
    const address = '198.51.100.4';
    const user = await createTestUser();
    const { socket } = await connectUserSocket(server.origin, user.idToken, { 'x-forwarded-for': address });
    opened.push(socket as TestSocket);
    expect(await connectedSockets()).toBe(1);
    expect(await outcomes(address, PER_ADDRESS)).toEqual(Array(PER_ADDRESS).fill('open'));
    expect(await connectedSockets()).toBe(1);
  });
});
