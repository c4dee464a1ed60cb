import type { SupportRequestBody, SupportSubmitted } from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/support. Signed in, it carries the token, so the request is tied to the account (and its
 * email is the default); signed out, it goes without one, and the Firebase SDK is never loaded for it.
 */
export function sendSupportRequest(body: SupportRequestBody, signedIn: boolean): Promise<SupportSubmitted> {
  return apiRequest<SupportSubmitted>('/api/support', { method: 'POST', body, auth: signedIn ? 'required' : 'none' });
}
