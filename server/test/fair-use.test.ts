import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerationLifecycle, queueName, type GenerationJobData } from '@mediagen/core';
import { deleteKeys } from '@mediagen/testing';
import { rateLimitNamespace } from '../src/routes/api';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { scrape, sample } from './support/metrics';
import { apiClient, imageRequest, speechRequest, videoRequest } from './support/requests';
import { createTestUser } from './support/users';

/** The in-flight cap per user and the per-user request rate limit (no workers: jobs stay queued). */
let context: TestContext;
let server: TestApp;
let videoQueue: Queue<GenerationJobData>;

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
  videoQueue = new Queue<GenerationJobData>(queueName('video'), { connection: context.redis, prefix: context.prefix });
});
afterAll(async () => {
  await videoQueue.close();
  // The rate-limit apps below use prefixes of their own, outside the context's.
  for (const suffix of ['rl', 'anon']) await deleteKeys(context.redis, `${context.prefix}-${suffix}:*`);
  await context.cleanup();
});

describe('MAX_IN_FLIGHT_PER_USER (default 3)', () => {
  it('refuses a fourth queued generation with 429, spending no token and enqueuing nothing', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const accepted = [await api.submit(speechRequest('one')), await api.submit(speechRequest('two'))];
    accepted.push(await api.submit(imageRequest()));
    expect(accepted.map((response) => response.status)).toEqual([202, 202, 202]);
    const before = sample(await scrape(server.origin), 'mediagen_in_flight_refusals_total', { kind: 'video' });
    const videoJobsBefore = await videoQueue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);

    const refused = await api.submit(videoRequest());
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: {
        code: 'TOO_MANY_IN_FLIGHT',
        message: 'You already have 3 generations in progress. Please wait for one to finish.',
      },
    });
    expect((await api.me()).body.tokens.video).toBe(1);
    const jobs = await videoQueue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    expect(jobs.map((job) => job.id).sort()).toEqual(videoJobsBefore.map((job) => job.id).sort());
    expect((await api.list()).body.items).toHaveLength(3);
    expect(sample(await scrape(server.origin), 'mediagen_in_flight_refusals_total', { kind: 'video' })).toBe(
      before + 1,
    );

    // A cancel frees the slot at once.
    expect((await api.cancel(accepted[0]!.body.id)).status).toBe(200);
    expect((await api.submit(videoRequest())).status).toBe(202);
  });

  it('counts a repeated Idempotency-Key once', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const headers = { 'idempotency-key': 'same-one' };
    await api.submit(speechRequest('a'));
    await api.submit(imageRequest());
    const first = await api.submit(videoRequest(), headers);
    const again = await api.submit(videoRequest(), headers);
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.body.id).toBe(first.body.id);
  });

  it('accepts at most the cap among simultaneous requests', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const responses = await Promise.all([
      api.submit(speechRequest('a')),
      api.submit(speechRequest('b')),
      api.submit(imageRequest()),
      api.submit(videoRequest()),
    ]);
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([202, 202, 202, 429]);
    const me = (await api.me()).body.tokens;
    expect(me.image + me.video + me.speech).toBe(1);
  });

  it('counts in flight in the record: an ended generation frees its slot wherever it ended', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const accepted = [
      await api.submit(speechRequest('a')),
      await api.submit(speechRequest('b')),
      await api.submit(imageRequest()),
    ];
    expect((await api.submit(videoRequest())).status).toBe(429);
    // A worker (here: the lifecycle, as a worker calls it) ends one; nothing on the server is told.
    const lifecycle = new GenerationLifecycle(server.app.database.db);
    await lifecycle.start(accepted[2]!.body.id);
    await lifecycle.fail(accepted[2]!.body.id, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
    expect((await api.submit(videoRequest())).status).toBe(202);
  });

  it('releases the slot of a request refused for tokens', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    expect((await api.submit(videoRequest('one'))).status).toBe(202);
    expect((await api.submit(videoRequest('two'))).status).toBe(402);
    const account = await server.app.database.db
      .selectFrom('accounts')
      .select('in_flight')
      .where('uid', '=', user.uid)
      .executeTakeFirstOrThrow();
    expect(account.in_flight).toBe(1);
  });
});

describe('RATE_LIMIT_PER_MINUTE', () => {
  it('answers 429 with Retry-After past the limit, per user and shared by every server', async () => {
    const limited = await context.start({ RATE_LIMIT_PER_MINUTE: '4', QUEUE_PREFIX: `${context.prefix}-rl` });
    const second = await context.start({ RATE_LIMIT_PER_MINUTE: '4', QUEUE_PREFIX: `${context.prefix}-rl` });
    const user = await createTestUser();
    const other = await createTestUser();
    const statuses: number[] = [];
    for (const origin of [limited.origin, second.origin, limited.origin, second.origin]) {
      statuses.push((await apiClient(origin, user).me()).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200]);

    const refused = await apiClient(second.origin, user).me();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: { code: 'RATE_LIMITED', message: 'Too many requests. Please slow down and try again shortly.' },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(
      sample(await scrape(second.origin), 'mediagen_http_requests_total', { route: '/api/me', status: '429' }),
    ).toBe(1);

    // Another user has a budget of their own.
    expect((await apiClient(limited.origin, other).me()).status).toBe(200);
    await Promise.all([limited.close(), second.close()]);
  });

  it('counts every one of many simultaneous requests, however they arrive, and lets each counter expire', async () => {
    const prefix = `${context.prefix}-rl`;
    const servers = [
      await context.start({ RATE_LIMIT_PER_MINUTE: '5', QUEUE_PREFIX: prefix }),
      await context.start({ RATE_LIMIT_PER_MINUTE: '5', QUEUE_PREFIX: prefix }),
    ];
    const users = [await createTestUser(), await createTestUser()];
    // Eight requests per user at once, half to each server: they reach Redis together, several in one call.
    const statuses = await Promise.all(
      users.map((user) =>
        Promise.all(
          Array.from(
            { length: 8 },
            async (_, index) => (await apiClient(servers[index % 2]!.origin, user).me()).status,
          ),
        ),
      ),
    );
    for (const own of statuses) expect(own.sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);

    for (const user of users) {
      const ttl = await context.redis.pttl(`${rateLimitNamespace(prefix)}uid:${user.uid}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    await Promise.all(servers.map((server) => server.close()));
  });

  it('counts anonymous callers by IP', async () => {
    const limited = await context.start({ RATE_LIMIT_PER_MINUTE: '2', QUEUE_PREFIX: `${context.prefix}-anon` });
    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await fetch(`${limited.origin}/api/me`)).status);
    expect(statuses).toEqual([401, 401, 429]);
    await limited.close();
  });
});
