import type { SalesRequestBody } from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/sales. Signed in, it carries the token, so the request is tied to the account (and its email
 * is the one replied to); signed out, it goes without one, and the Firebase SDK is never loaded for it.
 */
export async function sendSalesRequest(body: SalesRequestBody, signedIn: boolean): Promise<void> {
  await apiRequest<unknown>('/api/sales', { method: 'POST', body, auth: signedIn ? 'required' : 'none' });
}
