import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Generation } from '@mediagen/shared';
import { connectUserSocket, createTestContext, type TestApp, type TestContext, type TestSocket } from './support/app';
import { apiClient, speechRequest, videoRequest } from './support/requests';
import { createTestUser } from './support/users';

let context: TestContext;
let server: TestApp;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
});
afterEach(() => {
  sockets.splice(0).forEach((socket) => socket.close());
});
afterAll(() => context.cleanup());

async function connect(origin: string, token: string) {
  const connection = await connectUserSocket(origin, token);
  sockets.push(connection.socket);
  return connection;
}

const statuses = (updates: Generation[], id: string) =>
  updates.filter((update) => update.id === id).map((update) => update.status);

describe('generation:update', () => {
  it("reaches the owner's socket: queued, then canceled; other users hear nothing", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const aliceSocket = await connect(server.origin, alice.idToken);
    const bobSocket = await connect(server.origin, bob.idToken);
    const api = apiClient(server.origin, alice);

    const { body } = await api.submit(videoRequest('a quiet harbour'));
    const queued = await vi.waitUntil(() => aliceSocket.updates.find((update) => update.id === body.id), {
      timeout: 5000,
      interval: 25,
    });
    // The owner's socket hears what the 202 answered.
    expect(queued).toEqual(body);
    expect(queued).toMatchObject({
      id: body.id,
      kind: 'video',
      status: 'queued',
      progress: 0,
      prompt: 'a quiet harbour',
    });
    expect((await api.me()).body.tokens.video).toBe(0);

    expect((await api.cancel(body.id)).status).toBe(200);
    const canceled = await vi.waitUntil(
      () => aliceSocket.updates.find((update) => update.id === body.id && update.status === 'canceled'),
      { timeout: 5000, interval: 25 },
    );
    expect(canceled.error).toEqual({ code: 'CANCELED', message: 'Generation canceled.' });
    expect((await api.me()).body.tokens.video).toBe(1);

    // Give any stray event time to arrive before checking that none did.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bobSocket.updates).toEqual([]);
    expect(statuses(aliceSocket.updates, body.id)).toEqual(['queued', 'canceled']);
  });

  it('reaches every socket of the owner exactly once, whichever server instance holds it', async () => {
    const second = await context.start();
    try {
      const user = await createTestUser();
      const onFirst = await connect(server.origin, user.idToken);
      const onSecond = await connect(second.origin, user.idToken);
      const { body } = await apiClient(server.origin, user).submit(speechRequest('hello'));
      await vi.waitUntil(() => onFirst.updates.find((update) => update.id === body.id), {
        timeout: 5000,
        interval: 25,
      });
      await vi.waitUntil(() => onSecond.updates.find((update) => update.id === body.id), {
        timeout: 5000,
        interval: 25,
      });

      // A cancel handled by the other instance reaches both as well.
      expect((await apiClient(second.origin, user).cancel(body.id)).status).toBe(200);
      await vi.waitUntil(() => onFirst.updates.find((update) => update.status === 'canceled'), {
        timeout: 5000,
        interval: 25,
      });
      await vi.waitUntil(() => onSecond.updates.find((update) => update.status === 'canceled'), {
        timeout: 5000,
        interval: 25,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(statuses(onFirst.updates, body.id)).toEqual(['queued', 'canceled']);
      expect(statuses(onSecond.updates, body.id)).toEqual(['queued', 'canceled']);
    } finally {
      await second.close();
    }
  });

  it('disconnects sockets when the app closes', async () => {
    const other = await context.start();
    const user = await createTestUser();
    const { socket } = await connect(other.origin, user.idToken);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    await other.close();
    expect(await disconnected).toBeTruthy();
  });
});
