import { vi } from 'vitest';
import type { Generation, GenerationRequestInput } from '@mediagen/shared';
import { bearer } from './app';
import type { TestUser } from './users';

export const speechRequest = (input = 'Hello there') =>
  ({ kind: 'speech', input, voice: 'nova', language: 'en-US' }) satisfies GenerationRequestInput;
export const imageRequest = (prompt = 'a lighthouse at dawn') =>
  ({ kind: 'image', prompt }) satisfies GenerationRequestInput;
export const videoRequest = (prompt = 'waves on a beach') =>
  ({ kind: 'video', prompt }) satisfies GenerationRequestInput;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever shape a route answers
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small client for the API under test. */
export function apiClient(origin: string, user: TestUser) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { ...bearer(user), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
  };
  return {
    submit: (body: unknown, headers?: Record<string, string>) => call('POST', '/api/generations', body, headers),
    get: (id: string) => call('GET', `/api/generations/${id}`),
    list: (query = '') => call('GET', `/api/generations${query}`),
    cancel: (id: string) => call('POST', `/api/generations/${id}/cancel`),
    runAgain: (id: string) => call('POST', `/api/generations/${id}/again`),
    remove: (id: string) => call('DELETE', `/api/generations/${id}`),
    closeAccount: (body: unknown = { confirm: true }) => call('DELETE', '/api/me', body),
    me: () => call('GET', '/api/me'),
    speech: () => call('GET', '/api/speech'),
  };
}

/** Submits as `user` and waits until the generation has completed; its final state. */
export async function submitCompleted(
  origin: string,
  user: TestUser,
  request: GenerationRequestInput,
  timeoutMs = 15_000,
): Promise<Generation> {
  const api = apiClient(origin, user);
  const { body } = await api.submit(request);
  return vi.waitUntil(
    async () => {
      const read = await api.get(body.id);
      return read.body.status === 'completed' ? (read.body as Generation) : undefined;
    },
    { timeout: timeoutMs, interval: 25 },
  );
}
