import { describe, expect, it } from 'vitest';
import { getIdToken } from '@/testing/auth-client-double';
import { stubFetch } from '@/testing/fetch-stub';
import { ApiRequestError, apiRequest } from './api-client';

const fetchMock = stubFetch();

describe('apiRequest', () => {
  it('calls the API origin with the ID token', async () => {
    fetchMock.mockResolvedValueOnce(Response.json({ items: [], nextCursor: null }));
    await expect(apiRequest('/api/generations?limit=20')).resolves.toEqual({ items: [], nextCursor: null });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:3000/api/generations?limit=20');
    expect(init?.headers).toEqual({ Authorization: 'Bearer test-id-token' });
  });

  it('turns an error body into an ApiRequestError with its code and message', async () => {
    fetchMock.mockResolvedValueOnce(
      Response.json({ error: { code: 'RATE_LIMITED', message: 'Slow down' } }, { status: 429 }),
    );
    await expect(apiRequest('/api/me')).rejects.toEqual(new ApiRequestError(429, 'RATE_LIMITED', 'Slow down'));
  });

  it('gives a readable message when the body is not the error shape', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(apiRequest('/api/me')).rejects.toMatchObject({ status: 502, code: 'INTERNAL' });
  });

  it('reports an unreachable server', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiRequest('/api/me')).rejects.toMatchObject({ status: 0, code: 'NOT_READY' });
  });

  it('refuses without a signed-in user, before any request', async () => {
    getIdToken.mockResolvedValue(null);
    await expect(apiRequest('/api/me')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
