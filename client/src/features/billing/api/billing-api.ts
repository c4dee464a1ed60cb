import type { BillingRedirect, BillingState, CheckoutBody } from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

/** GET /api/billing: the signed-in user's plan as billing sees it. */
export function getBillingState(): Promise<BillingState> {
  return apiRequest<BillingState>('/api/billing');
}

/** POST /api/billing/checkout: Stripe's hosted checkout, or the portal when a subscription already runs. */
export function startCheckout(body: CheckoutBody): Promise<BillingRedirect> {
  return apiRequest<BillingRedirect>('/api/billing/checkout', { method: 'POST', body });
}

/** POST /api/billing/portal: Stripe's customer portal (plan, period, card, cancel, invoices). */
export function openPortal(): Promise<BillingRedirect> {
  return apiRequest<BillingRedirect>('/api/billing/portal', { method: 'POST' });
}
