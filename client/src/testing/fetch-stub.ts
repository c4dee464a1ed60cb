import { afterEach, beforeEach, vi } from 'vitest';

/** Stubs the global fetch for every test of the file that calls it; each test says what it answers. */
export function stubFetch() {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });
  return fetchMock;
}

/** An API answer with a JSON body. */
export function jsonAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Each JSON request a form sent through the stub: where to, its body, and the token it carried. */
export function jsonRequestsSent(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls.map(([url, init]) => ({
    url: String(url),
    body: JSON.parse(String(init?.body)) as unknown,
    authorization: (init?.headers as Record<string, string>).Authorization,
  }));
}
