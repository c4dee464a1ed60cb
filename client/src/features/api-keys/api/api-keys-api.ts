import type { ApiKeyList, CreateApiKeyBody, CreatedApiKey } from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

/** GET /api/keys: the account's keys (never their secrets) and whether its plan has API access. */
export function listApiKeys(): Promise<ApiKeyList> {
  return apiRequest<ApiKeyList>('/api/keys');
}

/** POST /api/keys: a new key, whose secret this answer alone carries. */
export function createApiKey(body: CreateApiKeyBody): Promise<CreatedApiKey> {
  return apiRequest<CreatedApiKey>('/api/keys', { method: 'POST', body });
}

/** DELETE /api/keys/:id: the key stops working on the next request, on every server. */
export function revokeApiKey(id: string): Promise<void> {
  return apiRequest<void>(`/api/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
