import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { createTestUser, type TestUser } from './support/users';

let context: TestContext;
let user: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  user = await createTestUser();
});
afterAll(() => context.cleanup());

/** A client that sends a request's headers and the start of its body, then goes quiet. */
async function stalledRequest(server: TestApp, headers: Record<string, string>): Promise<Socket> {
  const { port } = new URL(server.origin);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const head = Object.entries({
    host: '127.0.0.1',
    'content-type': 'application/json',
    'content-length': '1000',
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST /api/generations HTTP/1.1\r\n${head}\r\n{"kind":`);
  return socket;
}

describe('stopping the server', () => {
  it('a client stalled mid-request holds the shutdown for SHUTDOWN_GRACE_MS, then is cut off', async () => {
    const server = await context.start({ SHUTDOWN_GRACE_MS: '400' });
    const socket = await stalledRequest(server, { authorization: `Bearer ${user.idToken}` });
    const cut = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 100));

    const startedAt = performance.now();
    await server.close();
    const closingMs = performance.now() - startedAt;
    await cut;
    expect(closingMs).toBeGreaterThanOrEqual(350);
    expect(closingMs).toBeLessThan(5000);
  });
});
