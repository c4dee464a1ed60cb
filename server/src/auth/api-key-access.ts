import { apiError, type ApiKeyScope } from '@mediagen/shared';
import { ServiceError } from '../http/errors';
import type { ApiKeyCaller } from './identity-verifier';

/**
 * What an API key may reach, by route (Fastify's route url, prefix included). Anything not named here
 * takes a signed-in ID token only: account deletion, sessions (POST /api/session), billing and checkout,
 * the support and sales forms, key management. A new route is closed to keys until it is added, so a
 * key can never reach by accident what a person should confirm. The admin pages and Bull Board never
 * read a key at all (they verify an ID token or their own session).
 */
const EXACT: Record<string, ApiKeyScope> = {
  'GET /api/me': 'read',
  'GET /api/speech': 'read',
};

/** Everything under /api/generations (the library is its list): reading is `read`, any change `generate`. */
const GENERATIONS = /^\/api\/generations(\/|$)/;

function scopeNeeded(method: string, url: string): ApiKeyScope | null {
  const exact = EXACT[`${method} ${url}`];
  if (exact !== undefined) return exact;
  if (!GENERATIONS.test(url)) return null;
  return method === 'GET' || method === 'HEAD' ? 'read' : 'generate';
}

/**
 * Why a request made with `key` is refused (403), or null when the key may make it. A route the key
 * cannot reach says so whatever the plan; then a plan without API access, then a missing scope.
 */
export function apiKeyRefusal(key: ApiKeyCaller, method: string, url: string | undefined): ServiceError | null {
  // No route matched: the 404 says so, to a key as to anyone.
  if (url === undefined) return null;
  const scope = scopeNeeded(method, url);
  if (scope === null) return new ServiceError(403, 'API_KEY_NOT_ALLOWED');
  if (!key.planAllowsApi) return new ServiceError(403, 'NO_API_ACCESS');
  if (!key.scopes.includes(scope)) return ServiceError.from(403, apiError('API_KEY_SCOPE_MISSING', `${scope}.`));
  return null;
}
