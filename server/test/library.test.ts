import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailHash } from '@mediagen/core';
import type { Generation, GenerationRequestInput } from '@mediagen/shared';
import { createEmulatorUser, existingEmulatorUsers } from '@mediagen/testing';
import { authEmulatorHost } from '@mediagen/testing/vitest';
import { connectUserSocket, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest, speechRequest, submitCompleted, videoRequest } from './support/requests';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import { createTestUser, type TestUser } from './support/users';

/**
 * Issue 15 through the API: a creator deletes a generation (its file goes at once), or the whole account
 * (nothing of theirs stays but the anonymous trace, and signing up again brings no new free tokens).
 */
let pipeline: TestPipeline;
let context: TestContext;
let server: TestApp;

beforeAll(async () => {
  pipeline = await startTestPipeline({
    // Image and speech only: a video stays queued, to be deleted or closed while in flight.
    workers: { WORKER_KINDS: 'image,speech' },
  });
  ({ context, server } = pipeline);
});
afterAll(() => pipeline.close(), 60_000);

const completed = (user: TestUser, request: GenerationRequestInput = speechRequest()) =>
  submitCompleted(server.origin, user, request);

async function recordedRequests(...ids: string[]): Promise<Record<string, Record<string, unknown>>> {
  const rows = await server.app.database.db
    .selectFrom('generations')
    .select(['id', 'request'])
    .where('id', 'in', ids)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.id, row.request as Record<string, unknown>]));
}

const artifactFiles = async () => readdir(context.config().artifactsDir).catch(() => [] as string[]);

describe('DELETE /api/generations/:id', () => {
  it('deletes a finished generation: gone from the list, its link answers 404 at once, its owner told', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const { socket } = await connectUserSocket(server.origin, user.idToken);
    const removals: string[] = [];
    socket.on('generation:removed', ({ id }) => removals.push(id));
    try {
      const generation = await completed(user);
      expect((await fetch(generation.result!.url)).status).toBe(200);

      const deleted = await api.remove(generation.id);
      expect(deleted.status).toBe(204);
      expect((await fetch(generation.result!.url)).status).toBe(404);
      expect((await api.get(generation.id)).status).toBe(404);
      expect((await api.list()).body.items.map((item: Generation) => item.id)).not.toContain(generation.id);
      expect((await artifactFiles()).some((file) => file.startsWith(generation.id))).toBe(false);
      await vi.waitUntil(() => removals.includes(generation.id), { timeout: 5000, interval: 25 });
      // Deleting a result is not a refund.
      expect((await api.me()).body.tokens.speech).toBe(1);
      expect((await api.remove(generation.id)).status).toBe(404);
    } finally {
      socket.disconnect();
    }
  });

  it('cancels one still in flight first, giving its token back when no provider work began', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const { body } = await api.submit(videoRequest());
    expect((await api.me()).body.tokens.video).toBe(0);
    expect((await api.remove(body.id)).status).toBe(204);
    expect((await api.get(body.id)).status).toBe(404);
    expect((await api.me()).body.tokens.video).toBe(1);
    expect(await server.app.jobs.queue('video').getJob(body.id)).toBeUndefined();
  });

  it("answers 404 for someone else's generation and changes nothing", async () => {
    const owner = await createTestUser();
    const generation = await completed(owner);
    const stranger = apiClient(server.origin, await createTestUser());
    expect((await stranger.remove(generation.id)).status).toBe(404);
    expect((await apiClient(server.origin, owner).get(generation.id)).body.status).toBe('completed');
    expect((await fetch(generation.result!.url)).status).toBe(200);
  });
});

describe('POST /api/generations/:id/again', () => {
  it('makes a new generation with the same settings, charged as usual; an image gets a new seed', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const first = await completed(user, speechRequest('Read this twice'));
    const again = await api.runAgain(first.id);
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(first.id);
    expect(again.body.prompt).toBe('Read this twice');
    const requests = await recordedRequests(first.id, again.body.id);
    expect(requests[again.body.id]).toEqual(requests[first.id]);
    expect((await api.me()).body.tokens.speech).toBe(0);
    // Out of tokens now: refused like any submission, nothing made.
    expect((await api.runAgain(first.id)).status).toBe(402);
    expect((await api.list('?kind=speech')).body.items).toHaveLength(2);
  });

  it('asks for another picture: same settings, a new seed', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const first = await completed(user, { kind: 'image', prompt: 'a red kite over dunes', width: 768, height: 512 });
    await server.app.database.db
      .updateTable('accounts')
      .set((eb) => ({ image_tokens: eb('image_tokens', '+', 1) }))
      .where('uid', '=', user.uid)
      .execute();
    const again = await api.runAgain(first.id);
    expect(again.status).toBe(202);
    const requests = await recordedRequests(first.id, again.body.id);
    const { seed: firstSeed, ...firstSettings } = requests[first.id]!;
    const { seed: againSeed, ...againSettings } = requests[again.body.id]!;
    expect(againSettings).toEqual(firstSettings);
    expect(againSettings).toMatchObject({ width: 768, height: 512 });
    expect(againSeed).not.toBe(firstSeed);
  });

  it("answers 404 for someone else's generation and charges nothing", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const generation = await completed(owner);
    const answer = await apiClient(server.origin, other).runAgain(generation.id);
    expect(answer.status).toBe(404);
    expect((await apiClient(server.origin, other).me()).body.tokens).toEqual({ image: 1, video: 1, speech: 2 });
  });
});

describe('POST /api/generations/:id/cancel', () => {
  it('cancels a queued generation and keeps it in the history as canceled', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const { body } = await api.submit(videoRequest());
    const canceled = await api.cancel(body.id);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: body.id, status: 'canceled', token: 'refunded' });
    expect((await api.list()).body.items[0]).toMatchObject({ id: body.id, status: 'canceled' });
  });
});

describe('DELETE /api/me', () => {
  it('refuses without the confirmation, and deletes nothing', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    await api.submit(videoRequest());
    const refused = await api.closeAccount({});
    expect(refused.status).toBe(400);
    expect((await api.me()).status).toBe(200);
    expect((await api.list()).body.items).toHaveLength(1);
  });

  it('leaves no row, key or file of the user but the anonymous trace, and ends their sessions at once', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const image = await completed(user, imageRequest());
    const speech = await completed(user, speechRequest('kept with a key'));
    const queued = (await api.submit(videoRequest(), { 'idempotency-key': 'order-1' })).body as Generation;
    const ids = [image.id, speech.id, queued.id];
    const { socket } = await connectUserSocket(server.origin, user.idToken);
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    const closed = await api.closeAccount();
    expect(closed.status).toBe(204);
    await disconnected;

    // The API: the old token is refused, the links are dead.
    expect((await api.me()).status).toBe(401);
    for (const generation of [image, speech]) expect((await fetch(generation.result!.url)).status).toBe(404);
    // The identity is gone.
    expect(await existingEmulatorUsers(authEmulatorHost(), [user.uid])).toEqual([]);

    // The record: nothing of the user; the trace holds no uid and no email.
    const db = server.app.database.db;
    for (const table of ['accounts', 'generations', 'token_ledger', 'idempotency_keys'] as const) {
      const rows = await db.selectFrom(table).select('uid').where('uid', '=', user.uid).execute();
      expect(rows, table).toEqual([]);
    }
    const trace = await db
      .selectFrom('account_traces')
      .selectAll()
      .where('email_hash', '=', emailHash(context.config().accountTraceSecret, user.email))
      .executeTakeFirstOrThrow();
    expect(trace).toMatchObject({ image_spent: 1, video_spent: 0, speech_spent: 1 });
    expect(JSON.stringify(trace)).not.toContain(user.uid);
    expect(JSON.stringify(trace)).not.toContain(user.email);

    // Redis: no key names the user or one of their generations, and no value holds them, but for BullMQ's
    // own event log (trimmed at 10,000 events per queue), which keeps random job ids nothing links to
    // the user any more.
    const keys = await context.redis.keys(`${context.prefix}*`);
    for (const key of keys) {
      const held = `${key} ${JSON.stringify(await valueOf(key))}`;
      expect(held).not.toContain(user.uid);
      if (!key.endsWith(':events')) for (const id of ids) expect(held).not.toContain(id);
    }
    // Files: none of theirs.
    const files = await artifactFiles();
    for (const id of ids) expect(files.some((file) => file.startsWith(id))).toBe(false);

    // Signing up again with the same email in the same period brings no new free tokens.
    const again = await createEmulatorUser(authEmulatorHost(), user.email);
    const me = await apiClient(server.origin, again).me();
    expect(me.body.tokens).toEqual({ image: 0, video: 1, speech: 1 });
    expect((await apiClient(server.origin, again).submit(imageRequest())).status).toBe(402);
  });
});

/** Whatever a key holds, whatever its type. */
async function valueOf(key: string): Promise<unknown> {
  const redis = context.redis;
  switch (await redis.type(key)) {
    case 'string':
      return redis.get(key);
    case 'hash':
      return redis.hgetall(key);
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, -1);
    case 'stream':
      return redis.xrange(key, '-', '+');
    default:
      return null;
  }
}
