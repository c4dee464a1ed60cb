import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Generation, GenerationKind, GenerationRequestInput } from '@mediagen/shared';
import { bearer, type TestApp } from './support/app';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import { createTestUser, type TestUser } from './support/users';

/**
 * A generation's event stream (GET /api/generations/:id/events) and `Prefer: wait` on a submission, over
 * real HTTP, with real workers running generations against the provider simulator.
 */
let pipeline: TestPipeline;
let server: TestApp;

beforeAll(async () => {
  pipeline = await startTestPipeline({
    simulator: { latencyMs: 100, videoQueueingMs: 100, videoProcessingMs: 2500 },
    server: { SOCKETS_PER_USER: '2' },
  });
  ({ server } = pipeline);
});
afterAll(() => pipeline.close(), 60_000);

const IMAGE: GenerationRequestInput = { kind: 'image', prompt: 'a lighthouse at dusk' };
const SPEECH: GenerationRequestInput = { kind: 'speech', input: 'Hello there', voice: 'nova', language: 'en-US' };

async function submit(user: TestUser, body: GenerationRequestInput, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.origin}/api/generations`, {
    method: 'POST',
    headers: { ...bearer(user), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { response, generation: (await response.json()) as Generation };
}

interface ServerSentEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Opens a generation's event stream and keeps every event it sends until it ends or is closed. */
async function openStream(user: TestUser, id: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await fetch(`${server.origin}/api/generations/${id}/events`, {
    headers: { ...bearer(user), ...headers },
    signal: abort.signal,
  });
  const events: ServerSentEvent[] = [];
  let ended = false;
  const read = async () => {
    if (response.body === null || !response.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        if (lines.every((line) => line.startsWith(':'))) continue;
        const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
        events.push({ id: field('id'), event: field('event'), data: field('data') ?? '' });
      }
    }
  };
  void read()
    .catch(() => undefined)
    .finally(() => (ended = true));
  return {
    response,
    events,
    updates: () => events.filter((e) => e.event === 'generation:update').map((e) => JSON.parse(e.data) as Generation),
    ended: () => ended,
    close: () => abort.abort(),
  };
}

/** Holds a kind's jobs in their queue (no worker takes them) while `run` runs. */
async function withQueueHeld<T>(kind: GenerationKind, run: () => Promise<T>): Promise<T> {
  const queue = server.app.jobs.queue(kind);
  await queue.pause();
  try {
    return await run();
  } finally {
    await queue.resume();
  }
}

describe('a generation event stream', () => {
  it('delivers queued → active → completed in order, each versioned, then ends', async () => {
    const user = await createTestUser();
    const stream = await withQueueHeld('image', async () => {
      const { generation } = await submit(user, IMAGE);
      const opened = await openStream(user, generation.id);
      expect(opened.response.status).toBe(200);
      expect(opened.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      await expect.poll(() => opened.updates().map((update) => update.status)).toEqual(['queued']);
      return opened;
    });
    await expect.poll(stream.ended, { timeout: 20_000 }).toBe(true);
    const updates = stream.updates();
    expect([...new Set(updates.map((update) => update.status))]).toEqual(['queued', 'active', 'completed']);
    // Event ids are versions: they never go back, and each state change is a new one.
    const versions = updates.map((update) => update.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(stream.events.filter((e) => e.event === 'generation:update').map((e) => Number(e.id))).toEqual(versions);
    const completed = updates.at(-1);
    expect(completed).toMatchObject({ status: 'completed', progress: 100, token: 'spent' });
    expect(completed?.outputs?.length).toBe(1);

    // Reconnecting after the final state is told there is nothing more (an EventSource stops on 204).
    const again = await openStream(user, completed?.id ?? '', { 'last-event-id': String(completed?.version) });
    expect(again.response.status).toBe(204);
  });

  it("is 404 for another user's generation, as reading it is", async () => {
    const [owner, other] = await Promise.all([createTestUser(), createTestUser()]);
    const { generation } = await submit(owner, SPEECH);
    const stream = await openStream(other, generation.id);
    expect(stream.response.status).toBe(404);
    expect(((await stream.response.json()) as ErrorBody).error.code).toBe('NOT_FOUND');
  });

  it('is capped per user like sockets (SOCKETS_PER_USER), with 429 in the one error shape', async () => {
    const user = await createTestUser();
    await withQueueHeld('speech', async () => {
      const { generation } = await submit(user, SPEECH);
      const first = await openStream(user, generation.id);
      const second = await openStream(user, generation.id);
      try {
        expect([first.response.status, second.response.status]).toEqual([200, 200]);
        const refused = await openStream(user, generation.id);
        expect(refused.response.status).toBe(429);
        expect(((await refused.response.json()) as ErrorBody).error.code).toBe('TOO_MANY_CONNECTIONS');
        // A stream closed frees its place.
        first.close();
        await expect
          .poll(async () => {
            const next = await openStream(user, generation.id);
            next.close();
            return next.response.status;
          })
          .toBe(200);
      } finally {
        first.close();
        second.close();
      }
    });
  });
});

describe('Prefer: wait on a submission', () => {
  it('answers 201 with the finished generation when it ends within the wait', async () => {
    const user = await createTestUser();
    const { response, generation } = await submit(user, IMAGE, { prefer: 'wait=20' });
    expect(response.status).toBe(201);
    expect(response.headers.get('preference-applied')).toBe('wait=20');
    expect(response.headers.get('location')).toBe(`/api/generations/${generation.id}`);
    expect(generation).toMatchObject({ status: 'completed', progress: 100 });
    expect(generation.outputs?.length).toBe(1);
  });

  it('answers 202 as without it when the generation runs longer than the wait', async () => {
    const user = await createTestUser();
    const startedAt = Date.now();
    const { response, generation } = await submit(
      user,
      { kind: 'video', prompt: 'waves on a beach' },
      {
        prefer: 'wait=1',
      },
    );
    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('wait=1');
    expect(['queued', 'active']).toContain(generation.status);
    // It did wait for the generation before answering.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1000);
  });

  it('may be sent by a program in a page of the app: CORS allows Prefer and shows what it did', async () => {
    const preflight = await fetch(`${server.origin}/api/generations`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,prefer',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('prefer');
    const user = await createTestUser();
    const { response } = await submit(user, IMAGE, { prefer: 'wait=20', origin: 'http://127.0.0.1:5173' });
    expect(response.headers.get('access-control-expose-headers')).toContain('preference-applied');
  });
});
