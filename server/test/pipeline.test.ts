import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GenerationLifecycle } from '@mediagen/core';
import {
  DEFAULT_PLAN_RULES,
  type Generation,
  type GenerationKind,
  type GenerationRequestInput,
  type Me,
} from '@mediagen/shared';
import { bearer, connectUserSocket, jobEnded, type TestApp } from './support/app';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import { createTestUser, type TestUser } from './support/users';

/**
 * The whole pipeline in one process: the API over real HTTP and Socket.IO, real workers, the provider
 * simulator, the real Redis and the real auth emulator.
 */
let pipeline: TestPipeline;
let server: TestApp;
let simulator: TestPipeline['simulator'];

beforeAll(async () => {
  pipeline = await startTestPipeline({
    simulator: { latencyMs: 150, videoQueueingMs: 300, videoProcessingMs: 600 },
    server: { JOB_BACKOFF_MS: '50' },
  });
  ({ server, simulator } = pipeline);
});
afterAll(() => pipeline.close(), 60_000);

beforeEach(() => simulator.clearFaults());

const REQUESTS: Record<GenerationKind, GenerationRequestInput> = {
  image: { kind: 'image', prompt: 'a lighthouse at dusk' },
  video: { kind: 'video', prompt: 'waves rolling onto a beach' },
  speech: { kind: 'speech', input: 'Hello from the pipeline', voice: 'nova', language: 'en-US' },
};

async function submit(user: TestUser, body: GenerationRequestInput): Promise<{ status: number; body: Generation }> {
  const response = await fetch(`${server.origin}/api/generations`, {
    method: 'POST',
    headers: { ...bearer(user), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Generation };
}

async function inFlight(user: TestUser): Promise<number> {
  const account = await server.app.database.db
    .selectFrom('accounts')
    .select('in_flight')
    .where('uid', '=', user.uid)
    .executeTakeFirst();
  return account?.in_flight ?? 0;
}

async function tokens(user: TestUser): Promise<Me['tokens']> {
  const response = await fetch(`${server.origin}/api/me`, { headers: bearer(user) });
  return ((await response.json()) as Me).tokens;
}

function isMedia(kind: GenerationKind, bytes: Buffer): boolean {
  switch (kind) {
    case 'image':
      return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'video':
      return bytes.subarray(4, 8).toString('latin1') === 'ftyp';
    case 'speech':
      return bytes.subarray(0, 4).toString('latin1') === 'RIFF' || bytes.subarray(0, 3).toString('latin1') === 'ID3';
  }
}

describe.each(['image', 'video', 'speech'] as const)('%s, end to end', (kind) => {
  it('is queued, runs with rising progress, completes, and its artifact downloads', async () => {
    const user = await createTestUser();
    const { socket, updates } = await connectUserSocket(server.origin, user.idToken);
    try {
      const accepted = await submit(user, REQUESTS[kind]);
      expect(accepted.status).toBe(202);
      expect(accepted.body).toMatchObject({ kind, status: 'queued', progress: 0 });

      const completed = await vi.waitUntil(
        () => updates.find((update) => update.id === accepted.body.id && update.status === 'completed'),
        { timeout: 20_000, interval: 25 },
      );
      const mine = updates.filter((update) => update.id === accepted.body.id);
      const statuses = mine.map((update) => update.status);
      expect(statuses).toContain('queued');
      expect(statuses).toContain('active');
      const running = mine.filter((update) => update.status === 'active').map((update) => update.progress);
      expect(new Set(running).size).toBeGreaterThan(1);
      expect(running).toEqual([...running].sort((a, b) => a - b));
      expect(Math.max(...running)).toBeLessThanOrEqual(99);
      expect(completed.progress).toBe(100);

      const download = await fetch(completed.result!.url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe(completed.result!.mimeType);
      expect(isMedia(kind, Buffer.from(await download.arrayBuffer()))).toBe(true);
      // The completion freed its in-flight slot and spent its token, in the record.
      expect(await inFlight(user)).toBe(0);
      expect(completed.token).toBe('spent');
    } finally {
      socket.disconnect();
    }
  });
});

describe('failures', () => {
  it('a provider that keeps failing fails the job with a plain message and gives the token back', async () => {
    simulator.injectFault({ route: 'image', fault: 'http500' });
    const user = await createTestUser();
    const { socket, updates } = await connectUserSocket(server.origin, user.idToken);
    try {
      const accepted = await submit(user, REQUESTS.image);
      expect(accepted.status).toBe(202);
      const failed = await vi.waitUntil(
        () => updates.find((update) => update.id === accepted.body.id && update.status === 'failed'),
        { timeout: 20_000, interval: 25 },
      );
      expect(failed.error).toEqual({
        code: 'IMAGE_PROVIDER_ERROR',
        message: 'Image generation is unavailable right now. Your token was returned.',
      });
      expect((await tokens(user)).image).toBe(1);
      expect(failed.token).toBe('refunded');
      expect(await inFlight(user)).toBe(0);
      expect(simulator.stats().requests.image).toBeGreaterThanOrEqual(3);
    } finally {
      socket.disconnect();
    }
  });

  it("a video task that reports Fail ends with 'Video generation failed on server', its token spent", async () => {
    simulator.injectFault({ route: 'video.query', fault: 'fail-status' });
    const user = await createTestUser();
    const accepted = await submit(user, REQUESTS.video);
    const failed = await vi.waitUntil(
      async () => {
        const response = await fetch(`${server.origin}/api/generations/${accepted.body.id}`, { headers: bearer(user) });
        const generation = (await response.json()) as Generation;
        return generation.status === 'failed' ? generation : undefined;
      },
      { timeout: 20_000, interval: 25 },
    );
    expect(failed.error).toEqual({ code: 'VIDEO_FAILED_ON_SERVER', message: 'Video generation failed on server' });
    // The provider accepted the task (paid work) before refusing it: a refund would buy free renders.
    expect(failed.token).toBe('spent');
    expect((await tokens(user)).video).toBe(0);
  });

  it('a running video can be canceled: polling stops; the provider had started, so the token stays spent', async () => {
    const user = await createTestUser();
    const created = simulator.stats().requests['video.create'];
    const accepted = await submit(user, { kind: 'video', prompt: 'a slow sunrise' });
    // Once the provider has the task, it is paid work.
    await vi.waitUntil(() => (simulator.stats().requests['video.create'] > created ? true : undefined), {
      timeout: 10_000,
      interval: 25,
    });
    const canceled = await fetch(`${server.origin}/api/generations/${accepted.body.id}/cancel`, {
      method: 'POST',
      headers: bearer(user),
    });
    expect(canceled.status).toBe(200);
    expect((await canceled.json()) as Generation).toMatchObject({ status: 'canceled', token: 'spent' });
    expect((await tokens(user)).video).toBe(0);
    // Polling stops: the job ends (a poll already under way may finish), and nothing brings it back.
    await expect.poll(() => jobEnded(server, accepted.body.id), { timeout: 5000 }).toBe(true);
    const after = await fetch(`${server.origin}/api/generations/${accepted.body.id}`, { headers: bearer(user) });
    expect(((await after.json()) as Generation).status).toBe('canceled');
  });
});

describe('image sets', () => {
  const lifecycle = () => new GenerationLifecycle(server.app.database.db);

  it('a Pro set of 3 completes with 3 outputs on the socket, the 202 and the list, each downloadable; deleting it removes every file', async () => {
    const user = await createTestUser();
    await lifecycle().setPlan(user.uid, 'pro', 'image set test');
    const { socket, updates } = await connectUserSocket(server.origin, user.idToken);
    try {
      const accepted = await submit(user, { kind: 'image', prompt: 'three lighthouses', samples: 3 });
      expect(accepted.status).toBe(202);
      expect(accepted.body).toMatchObject({ status: 'queued', tokenCount: 3, tokensReturned: 0 });
      expect(accepted.body).not.toHaveProperty('outputs');
      const completed = await vi.waitUntil(
        () => updates.find((update) => update.id === accepted.body.id && update.status === 'completed'),
        { timeout: 20_000, interval: 25 },
      );
      expect(completed).toMatchObject({ token: 'spent', tokenCount: 3, tokensReturned: 0 });
      const outputs = completed.outputs!;
      expect(outputs).toHaveLength(3);
      // `result` stays the first file, for clients that read one.
      expect(completed.result).toMatchObject({ url: (outputs[0] as { url: string }).url, mimeType: 'image/png' });
      const files = outputs.map((output) => output as { url: string; mimeType: string; seed: number });
      expect(new Set(files.map((file) => new URL(file.url).pathname)).size).toBe(3);
      expect(files.map((file) => file.seed)).toEqual([files[0]!.seed, files[0]!.seed + 1, files[0]!.seed + 2]);
      for (const file of files) {
        const download = await fetch(file.url);
        expect(download.status).toBe(200);
        expect(isMedia('image', Buffer.from(await download.arrayBuffer()))).toBe(true);
      }
      const listed = await fetch(`${server.origin}/api/generations?kind=image`, { headers: bearer(user) });
      const [item] = ((await listed.json()) as { items: Generation[] }).items;
      expect(item!.outputs).toHaveLength(3);
      expect((await tokens(user)).image).toBe(DEFAULT_PLAN_RULES.pro.allowance.image - 3);

      const removed = await fetch(`${server.origin}/api/generations/${accepted.body.id}`, {
        method: 'DELETE',
        headers: bearer(user),
      });
      expect(removed.status).toBe(204);
      for (const file of files) await expect.poll(async () => (await fetch(file.url)).status).toBe(404);
    } finally {
      socket.disconnect();
    }
  });

  it('one filtered image of a set of 4 shows as filtered and returns exactly one token', async () => {
    simulator.injectFault({ route: 'image', fault: 'content-filtered', times: 1 });
    const user = await createTestUser();
    await lifecycle().setPlan(user.uid, 'pro', 'image set test');
    const accepted = await submit(user, { kind: 'image', prompt: 'four lighthouses', samples: 4 });
    expect(accepted.status).toBe(202);
    const done = await vi.waitUntil(
      async () => {
        const response = await fetch(`${server.origin}/api/generations/${accepted.body.id}`, { headers: bearer(user) });
        const generation = (await response.json()) as Generation;
        return generation.status === 'completed' ? generation : undefined;
      },
      { timeout: 20_000, interval: 50 },
    );
    // Pro's default model is v2beta Core: four calls, the first filtered.
    expect(done.outputs!.map((output) => ('missing' in output ? output.missing : 'made'))).toEqual([
      'filtered',
      'made',
      'made',
      'made',
    ]);
    expect(done).toMatchObject({ token: 'spent', tokenCount: 4, tokensReturned: 1 });
    expect((await tokens(user)).image).toBe(DEFAULT_PLAN_RULES.pro.allowance.image - 3);
  });

  it('refuses more images than the plan makes with 403 PLAN_LIMIT and more than 10 with 400, charging nothing', async () => {
    const user = await createTestUser();
    const free = await submit(user, { kind: 'image', prompt: 'two lighthouses', samples: 2 });
    expect(free.status).toBe(403);
    expect(free.body).toMatchObject({
      error: { code: 'PLAN_LIMIT', message: 'The Free plan makes one image per request. Upgrade your plan for more.' },
    });
    await lifecycle().setPlan(user.uid, 'pro', 'image set test');
    expect((await submit(user, { kind: 'image', prompt: 'five lighthouses', samples: 5 })).body).toMatchObject({
      error: {
        code: 'PLAN_LIMIT',
        message: 'The Pro plan makes up to 4 images per request. Upgrade your plan for more.',
      },
    });
    const tooMany = await submit(user, { kind: 'image', prompt: 'many lighthouses', samples: 11 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      error: { code: 'INVALID_REQUEST', message: 'samples: must be 1 to 10: the number of images' },
    });
    expect((await tokens(user)).image).toBe(DEFAULT_PLAN_RULES.pro.allowance.image);
  });
});
