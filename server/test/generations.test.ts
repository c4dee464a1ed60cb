import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerationLifecycle, queueName, type GenerationJobData } from '@mediagen/core';
import { MAX_IMAGE_SEED } from '@mediagen/shared';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest, speechRequest, videoRequest } from './support/requests';
import { createTestUser } from './support/users';

let context: TestContext;
let server: TestApp;
const queues: Queue[] = [];

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
});
afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.close()));
  await context.cleanup();
});

async function newClient() {
  const user = await createTestUser();
  return { user, api: apiClient(server.origin, user) };
}

async function recordOf(id: string) {
  const record = await server.app.database.db
    .selectFrom('generations')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return record as typeof record & { request: Record<string, unknown> };
}

function queueOf(kind: 'image' | 'video' | 'speech'): Queue<GenerationJobData> {
  const queue = new Queue<GenerationJobData>(queueName(kind), { connection: context.redis, prefix: context.prefix });
  queues.push(queue);
  return queue;
}

describe('POST /api/generations: validation (spec §5)', () => {
  it('refuses a blank prompt', async () => {
    const { api } = await newClient();
    const response = await api.submit({ kind: 'image', prompt: '   ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'PROMPT_REQUIRED', message: 'Please enter a prompt' } });
  });

  it('refuses a blocked image prompt without spending a token', async () => {
    const { api } = await newClient();
    const response = await api.submit(imageRequest('A NUDE statue'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'PROMPT_BLOCKED', message: 'Prompt contains inappropriate content: nude' },
    });
    expect((await api.me()).body.tokens).toEqual({ image: 1, video: 1, speech: 2 });
  });

  it('normalises prompts first: hidden blocked words are blocked, invisible-only prompts cost nothing', async () => {
    const { api } = await newClient();
    const before = (await api.me()).body.tokens;
    const hidden = await api.submit(imageRequest('a nu\u200Bde statue, go\u00ADre'));
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual({
      error: { code: 'PROMPT_BLOCKED', message: 'Prompt contains inappropriate content: nude, gore' },
    });
    for (const kind of ['image', 'video'] as const) {
      const invisible = await api.submit({ kind, prompt: '\u200B\u200C\u2060\u00AD' });
      expect(invisible.body).toEqual({ error: { code: 'PROMPT_REQUIRED', message: 'Please enter a prompt' } });
    }
    expect((await api.me()).body.tokens).toEqual(before);

    const accepted = await api.submit(speechRequest('Good\u200B morning\u2060'));
    expect(accepted.status).toBe(202);
    expect(accepted.body.prompt).toBe('Good morning');
  });

  it('refuses speech without a voice', async () => {
    const { api } = await newClient();
    const response = await api.submit({ kind: 'speech', input: 'Hello', language: 'en-US' });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Please select language and voice options');
  });

  it('refuses a speed the speech model in use does not take with a 400, charging nothing', async () => {
    const { api } = await newClient();
    const response = await api.submit({ ...speechRequest(), speed: 2 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        code: 'INVALID_REQUEST',
        message: 'speed must be from 0.25 to 1.5 with the speech model in use (gpt-realtime-2.1-mini)',
      },
    });
    expect((await api.me()).body.tokens.speech).toBe(2);
    expect((await api.submit({ ...speechRequest(), speed: 1.5 })).status).toBe(202);
  });

  it('refuses blank speech', async () => {
    const { api } = await newClient();
    const response = await api.submit(speechRequest(' '));
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'SPEECH_TEXT_REQUIRED', message: 'Please enter some text' });
  });

  it('refuses an unknown kind and unknown fields', async () => {
    const { api } = await newClient();
    expect((await api.submit({ kind: 'music', prompt: 'x' })).status).toBe(400);
    const extra = await api.submit({ ...imageRequest(), engine: 'other' });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('POST /api/generations: tokens', () => {
  it('accepts a speech request with 202 and a queued generation', async () => {
    const { api, user } = await newClient();
    const response = await api.submit(speechRequest('  Good morning  '));
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({
      kind: 'speech',
      status: 'queued',
      progress: 0,
      prompt: 'Good morning',
      // Nova is not a voice of the Realtime models: the creator is told which one reads it.
      speech: {
        model: 'gpt-realtime-2.1-mini',
        voice: 'nova',
        voiceUsed: 'coral',
        language: 'en-US',
        speed: 1,
        format: 'mp3',
      },
    });
    expect(response.body.id).toMatch(/^speech_[a-f0-9]{32}$/);
    expect(response.body.createdAt).toBe(response.body.updatedAt);

    // The record holds the request and the owner; the job only points at it, with nothing personal.
    const record = await recordOf(response.body.id);
    expect(record).toMatchObject({
      uid: user.uid,
      kind: 'speech',
      status: 'queued',
      request: {
        input: 'Good morning',
        voice: 'nova',
        language: 'en-US',
        speed: 1,
        format: 'mp3',
        // The model in use is recorded: it reads this speech however long it waits.
        model: 'gpt-realtime-2.1-mini',
      },
    });
    expect(record.request).not.toHaveProperty('kind');
    const job = await queueOf('speech').getJob(response.body.id);
    expect(job?.data).toEqual({ kind: 'speech' });
    expect(job?.opts.attempts).toBe(3);
    expect((await api.me()).body.tokens.speech).toBe(1);
  });

  it('gives an image job a seed at enqueue, and keeps one that was given', async () => {
    const { api } = await newClient();
    const first = await api.submit(imageRequest());
    const seed = (await recordOf(first.body.id)).request.seed as number;
    expect(Number.isInteger(seed) && seed >= 0 && seed <= MAX_IMAGE_SEED).toBe(true);

    const { api: other } = await newClient();
    const second = await other.submit({ ...imageRequest(), seed: 42 });
    expect((await recordOf(second.body.id)).request.seed).toBe(42);
  });

  it("refuses a fresh user's third speech with 402 and the spec's message", async () => {
    const { api } = await newClient();
    expect((await api.submit(speechRequest('one'))).status).toBe(202);
    expect((await api.submit(speechRequest('two'))).status).toBe(202);
    const third = await api.submit(speechRequest('three'));
    expect(third.status).toBe(402);
    expect(third.body).toEqual({
      error: {
        code: 'TOKENS_EXHAUSTED',
        message:
          'Your free tokens are over. Tokens will reset in 30 days. Please purchase a subscription for unlimited access.',
      },
    });
    expect((await api.me()).body.tokens).toEqual({ image: 1, video: 1, speech: 0 });
  });

  it('accepts exactly one of two simultaneous video requests for the last token', async () => {
    const { api, user } = await newClient();
    const responses = await Promise.all([api.submit(videoRequest('first')), api.submit(videoRequest('second'))]);
    expect(responses.map((response) => response.status).sort()).toEqual([202, 402]);
    expect((await api.me()).body.tokens.video).toBe(0);
    expect((await api.list()).body.items).toHaveLength(1);
    expect(user.uid).toBeTruthy();
  });
});

describe('POST /api/generations: Idempotency-Key', () => {
  it('answers a repeat with the same generation, one job and one token', async () => {
    const { api } = await newClient();
    const headers = { 'idempotency-key': 'order-123' };
    const first = await api.submit(speechRequest('Hello'), headers);
    const second = await api.submit({ voice: 'nova', input: 'Hello', language: 'en-US', kind: 'speech' }, headers);
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.status).toBe('queued');

    const jobs = await queueOf('speech').getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    expect(jobs.filter((job) => job.id === first.body.id)).toHaveLength(1);
    expect((await api.me()).body.tokens.speech).toBe(1);
  });

  it('refuses the same key with a different body with 422', async () => {
    const { api } = await newClient();
    const headers = { 'idempotency-key': 'order-456' };
    expect((await api.submit(speechRequest('Hello'), headers)).status).toBe(202);
    const conflict = await api.submit(speechRequest('Goodbye'), headers);
    expect(conflict.status).toBe(422);
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await api.me()).body.tokens.speech).toBe(1);
  });

  it('keeps keys per user', async () => {
    const { api: alice } = await newClient();
    const { api: bob } = await newClient();
    const headers = { 'idempotency-key': 'shared-key' };
    const a = await alice.submit(speechRequest('Hello'), headers);
    const b = await bob.submit(speechRequest('Hello'), headers);
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('forgets the key when the request was refused for tokens', async () => {
    const { api } = await newClient();
    expect((await api.submit(videoRequest('one'))).status).toBe(202);
    const headers = { 'idempotency-key': 'video-2' };
    expect((await api.submit(videoRequest('two'), headers)).status).toBe(402);
    // A different body under the same key is not a conflict: the refused request left no record.
    expect((await api.submit(videoRequest('three'), headers)).status).toBe(402);
  });

  it('refuses a malformed key', async () => {
    const { api } = await newClient();
    const response = await api.submit(speechRequest(), { 'idempotency-key': 'has spaces' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect((await api.me()).body.tokens.speech).toBe(2);
  });
});

describe('reading and canceling', () => {
  it("answers 404 for another user's generation, on GET and DELETE", async () => {
    const { api: alice } = await newClient();
    const { api: bob } = await newClient();
    const { body } = await alice.submit(speechRequest());
    expect((await alice.get(body.id)).status).toBe(200);
    const read = await bob.get(body.id);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Generation not found.' } });
    expect((await bob.cancel(body.id)).status).toBe(404);
    expect((await alice.get(body.id)).body.status).toBe('queued');
    expect((await alice.me()).body.tokens.speech).toBe(1);
  });

  it('answers 404 for ids of a bad shape or unknown kind', async () => {
    const { api } = await newClient();
    for (const id of ['nope', 'music_0123456789abcdef0123456789abcdef', 'speech_123', '..%2F..%2Fetc']) {
      expect((await api.get(id)).status).toBe(404);
      expect((await api.cancel(id)).status).toBe(404);
    }
  });

  it('cancels a queued generation, refunds its token and keeps showing it as canceled', async () => {
    const { api } = await newClient();
    const { body } = await api.submit(videoRequest());
    expect((await api.me()).body.tokens.video).toBe(0);

    const canceled = await api.cancel(body.id);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      id: body.id,
      status: 'canceled',
      prompt: 'waves on a beach',
      error: { code: 'CANCELED', message: 'Generation canceled.' },
    });
    expect((await api.me()).body.tokens.video).toBe(1);
    expect(await queueOf('video').getJob(body.id)).toBeUndefined();

    expect((await api.get(body.id)).body.status).toBe('canceled');
    const again = await api.cancel(body.id);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('canceled');
    expect((await api.me()).body.tokens.video).toBe(1);
    expect((await api.list()).body.items.map((item: { status: string }) => item.status)).toEqual(['canceled']);
  });

  it('says before a cancel whether the token comes back: not once a paid provider call was made', async () => {
    const { api } = await newClient();
    const lifecycle = new GenerationLifecycle(server.app.database.db);
    const { body } = await api.submit(videoRequest());
    expect(body.paidWorkStarted).toBe(false);
    expect((await lifecycle.start(body.id)).ok).toBe(true);
    expect((await api.get(body.id)).body).toMatchObject({ status: 'active', paidWorkStarted: false });

    expect((await lifecycle.providerStarted(body.id)).ok).toBe(true);
    expect((await api.get(body.id)).body).toMatchObject({ status: 'active', token: 'held', paidWorkStarted: true });
    const canceled = await api.cancel(body.id);
    expect(canceled.body).toMatchObject({ status: 'canceled', token: 'spent', paidWorkStarted: true });
    expect((await api.me()).body.tokens.video).toBe(0);
  });
});

describe('GET /api/generations', () => {
  it('lists own generations newest first, filters by kind and status, searches prompts, pages with a cursor', async () => {
    const { api } = await newClient();
    const { api: other } = await newClient();
    await other.submit(speechRequest('not mine'));
    const ids: string[] = [];
    for (const body of [
      speechRequest('first light'),
      imageRequest('second 100%_ sure'),
      speechRequest('third light'),
    ]) {
      ids.push((await api.submit(body)).body.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await api.cancel(ids[0]!)).status).toBe(200);

    const all = await api.list();
    expect(all.status).toBe(200);
    expect(all.body.items.map((item: { id: string }) => item.id)).toEqual([...ids].reverse());
    expect(all.body.nextCursor).toBeNull();

    const prompts = async (query: string) =>
      (await api.list(query)).body.items.map((item: { prompt: string }) => item.prompt);
    expect(await prompts('?kind=speech')).toEqual(['third light', 'first light']);
    expect(await prompts('?status=canceled')).toEqual(['first light']);
    expect(await prompts('?q=LIGHT')).toEqual(['third light', 'first light']);
    expect(await prompts('?q=light&status=queued')).toEqual(['third light']);
    // Search is for text: % and _ are the characters, not wildcards.
    expect(await prompts(`?q=${encodeURIComponent('100%_')}`)).toEqual(['second 100%_ sure']);
    expect(await prompts(`?q=${encodeURIComponent('%')}`)).toEqual(['second 100%_ sure']);

    const page1 = await api.list('?limit=2');
    expect(page1.body.items.map((item: { prompt: string }) => item.prompt)).toEqual([
      'third light',
      'second 100%_ sure',
    ]);
    expect(page1.body.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // A generation made between two pages does not shift the next page.
    await api.submit(speechRequest('fourth'));
    const page2 = await api.list(`?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items.map((item: { prompt: string }) => item.prompt)).toEqual(['first light']);
    expect(page2.body.nextCursor).toBeNull();
  });

  it('refuses a bad query with 400', async () => {
    const { api } = await newClient();
    expect((await api.list('?limit=0')).status).toBe(400);
    expect((await api.list('?kind=music')).status).toBe(400);
    const cursor = await api.list('?cursor=abc');
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.message).toContain('cursor must be the nextCursor of a previous page');
  });
});

describe('GET /api/speech', () => {
  it('tells the speech model in use, its speeds and the voice each choice is read with', async () => {
    const { api } = await newClient();
    const response = await api.speech();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      model: 'gpt-realtime-2.1-mini',
      speed: { min: 0.25, max: 1.5 },
      voices: { nova: 'coral', shimmer: 'shimmer', alloy: 'alloy', echo: 'echo', onyx: 'cedar', fable: 'ballad' },
    });
  });
});

describe('a speech model past its shutdown', () => {
  it('takes no speech (503, nothing charged) while images still go', async () => {
    const afterShutdown = await context.start(
      { SPEECH_MODEL: 'tts-1' },
      { clock: () => Date.parse('2027-01-06T08:00:00Z') },
    );
    const user = await createTestUser();
    const api = apiClient(afterShutdown.origin, user);
    const refused = await api.submit(speechRequest());
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      error: { code: 'NOT_READY', message: 'Speech generation is unavailable right now. Nothing was charged.' },
    });
    expect((await api.me()).body.tokens.speech).toBe(2);
    expect((await api.submit(imageRequest())).status).toBe(202);
    await afterShutdown.close();
  });

  it('still takes the speech endpoint its wider speeds before then', async () => {
    const beforeShutdown = await context.start(
      { SPEECH_MODEL: 'tts-1' },
      { clock: () => Date.parse('2027-01-05T08:00:00Z') },
    );
    const api = apiClient(beforeShutdown.origin, await createTestUser());
    const accepted = await api.submit({ ...speechRequest(), speed: 3 });
    expect(accepted.status).toBe(202);
    expect(accepted.body.speech).toMatchObject({ model: 'tts-1', voice: 'nova', voiceUsed: 'nova', speed: 3 });
    await beforeShutdown.close();
  });
});
