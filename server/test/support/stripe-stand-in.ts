import { createSimulator, DEFAULT_WEBHOOK_SECRET, type Simulator, type StripePriceSpec } from '@mediagen/simulator';
import { DEFAULT_STRIPE_PRICES } from '@mediagen/simulator';
import type Stripe from 'stripe';

/**
 * The simulator's Stripe stand-in (simulator/README.md, "Stripe") in this process, for the server's
 * billing tests: the real SDK's calls, the hosted pages, signed webhooks retried quickly.
 */
export async function startStripeStandIn(extraPrices: readonly StripePriceSpec[] = []): Promise<Simulator> {
  const simulator = createSimulator({
    latencyMs: 0,
    stripe: {
      prices: [...DEFAULT_STRIPE_PRICES, ...extraPrices],
      // Stripe's backoff, compressed: a backlog catches up within a test's patience.
      webhookRetry: { initialMs: 50, maxMs: 500 },
    },
  });
  await simulator.listen();
  return simulator;
}

/** The server's settings that point it at the stand-in (prices as DEFAULT_STRIPE_PRICES names them). */
export function stripeSettingsFor(simulator: Simulator): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: 'sk_test_mediagen_server',
    STRIPE_WEBHOOK_SECRET: DEFAULT_WEBHOOK_SECRET,
    STRIPE_API_URL: simulator.url,
    STRIPE_PRICE_PRO_MONTHLY: 'price_pro_monthly',
    STRIPE_PRICE_PRO_YEARLY: 'price_pro_yearly',
    STRIPE_PRICE_ENTERPRISE_MONTHLY: 'price_enterprise_monthly',
    STRIPE_PRICE_ENTERPRISE_YEARLY: 'price_enterprise_yearly',
  };
}

/** POSTs a hosted page's button, as the browser's form does, without following the redirect. */
export function pressButton(pageUrl: string, action: string, fields: Record<string, string> = {}) {
  return fetch(`${pageUrl}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/**
 * Every event the stand-in made about a customer has been answered 2xx (none held or still retrying).
 * Scoped to one customer: events a test sent by hand, or held on purpose, stay undelivered for good.
 */
export function deliveredFor(simulator: Simulator, customerId: string): boolean {
  return simulator.stripe
    .events()
    .filter(({ event }) => customerOfEvent(event) === customerId)
    .every((delivery) => delivery.delivered);
}

function customerOfEvent(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; id?: string; customer?: string | { id: string } | null };
  if (object.object === 'customer') return object.id ?? null;
  const { customer } = object;
  return typeof customer === 'string' ? customer : (customer?.id ?? null);
}
