import { GENERATION_KINDS, type Generation, type GenerationRequestInput, type Me } from '@mediagen/shared';
import { vi } from 'vitest';
import type { TestApp, TestUser } from '@mediagen/server/testing';

export const REQUESTS = {
  image: { kind: 'image', prompt: 'a lighthouse at dusk' },
  video: { kind: 'video', prompt: 'waves rolling onto a beach' },
  speech: { kind: 'speech', input: 'Hello from the fault suite', voice: 'nova', language: 'en-US' },
} as const satisfies Record<string, GenerationRequestInput>;

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = unknown>(
  origin: string,
  user: TestUser | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      ...(user === null ? {} : { authorization: `Bearer ${user.idToken}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export const submit = (origin: string, user: TestUser, request: GenerationRequestInput) =>
  call<Generation>(origin, user, 'POST', '/api/generations', request);

export async function tokens(origin: string, user: TestUser): Promise<Me['tokens']> {
  const answer = await call<Me>(origin, user, 'GET', '/api/me');
  if (answer.status !== 200) throw new Error(`/api/me answered ${answer.status}: ${answer.text}`);
  return answer.body.tokens;
}

/** Reads the generation until it has ended (completed, failed or canceled); a timeout says where it stood. */
export async function finalState(origin: string, user: TestUser, id: string, timeoutMs: number): Promise<Generation> {
  let lastSeen = 'no answer yet';
  try {
    return await vi.waitUntil(
      async () => {
        const answer = await call<Generation>(origin, user, 'GET', `/api/generations/${id}`).catch((error: unknown) => {
          lastSeen = `no answer (${String(error)})`;
          return undefined;
        });
        if (answer === undefined) return undefined;
        if (answer.status !== 200) {
          lastSeen = `${answer.status} ${answer.text}`;
          return undefined;
        }
        lastSeen = `${answer.body.status} at ${answer.body.progress ?? 0} %`;
        return ['completed', 'failed', 'canceled'].includes(answer.body.status) ? answer.body : undefined;
      },
      { timeout: timeoutMs, interval: 100 },
    );
  } catch {
    throw new Error(`${id} had not ended after ${timeoutMs} ms: last seen ${lastSeen}`);
  }
}

/** How many generation jobs the workers are running now, every kind together. */
export async function activeJobs(server: TestApp): Promise<number> {
  const counts = await Promise.all(GENERATION_KINDS.map((kind) => server.app.jobs.queue(kind).getActiveCount()));
  return counts.reduce((sum, count) => sum + count, 0);
}
