import type Stripe from 'stripe';
import { StripeAccount, type RenewalPayment } from './stripeAccount';
import { DEFAULT_STRIPE_PRICES, StripeCatalogue, type StripePriceSpec } from './stripeCatalogue';
import {
  WebhookDispatcher,
  type EventDeliveries,
  type ReleaseOrder,
  type WebhookDeliveryMode,
  type WebhookEndpoint,
  type WebhookRetry,
} from './webhookDispatcher';

export interface StripeOptions {
  /** The prices sold. Default DEFAULT_STRIPE_PRICES (the spec's Pro and Enterprise, monthly and yearly). */
  prices?: readonly StripePriceSpec[];
  /** The one secret key accepted. Default: any test-mode key (`sk_test_…`). */
  secretKey?: string;
  /** Where events are POSTed. Default: nowhere until one is set (events are still recorded). */
  webhookUrl?: string;
  /** The endpoint's signing secret. Default DEFAULT_WEBHOOK_SECRET. */
  webhookSecret?: string;
  /** Default 200 ms, doubling to at most 5 s, for as long as the simulator runs. */
  webhookRetry?: WebhookRetry;
  /** How long a delivery waits for the receiver's answer. Default 10 s. */
  webhookTimeoutMs?: number;
}

/** The development endpoint secret: the server's STRIPE_WEBHOOK_SECRET must match it when the stand-in sends. */
export const DEFAULT_WEBHOOK_SECRET = 'whsec_dev_mediagen_stripe_stand_in';
const DEFAULT_RETRY: WebhookRetry = { initialMs: 200, maxMs: 5000 };
const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** What tests and scripts do to the Stripe stand-in beyond its API (also under /__sim/stripe). */
export interface StripeControl {
  readonly webhookEndpoint: WebhookEndpoint | undefined;
  /** Sends new events to `url` (signed with `secret`, default the configured one); undefined stops sending. */
  setWebhookEndpoint(endpoint: { url: string; secret?: string } | undefined): void;
  readonly deliveryMode: WebhookDeliveryMode;
  setDeliveryMode(mode: Partial<WebhookDeliveryMode>): void;
  /** Sends the held events in this order; returns their ids as sent. */
  releaseHeldEvents(order?: ReleaseOrder): string[];
  /** Sends an event once more; false for an unknown id. */
  resendEvent(eventId: string): boolean;
  /** Every event so far, oldest first, with its delivery attempts. */
  events(): EventDeliveries[];
  /** What the hosted page's Pay does, without a browser. */
  completeCheckout(sessionId: string): Stripe.Checkout.Session;
  /** Moves a subscription to its period's end: renewal, pending cancel or downgrade (see StripeAccount). */
  advanceSubscription(subscriptionId: string, payment?: RenewalPayment): Stripe.Subscription;
}

export interface StripeStandIn {
  account: StripeAccount;
  webhooks: WebhookDispatcher;
  control: StripeControl;
}

export function createStripeStandIn(options: StripeOptions, log: (message: string) => void): StripeStandIn {
  const secret = options.webhookSecret ?? DEFAULT_WEBHOOK_SECRET;
  const webhooks = new WebhookDispatcher({
    endpoint: options.webhookUrl === undefined ? undefined : { url: options.webhookUrl, secret },
    retry: options.webhookRetry ?? DEFAULT_RETRY,
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    log,
  });
  const account = new StripeAccount(
    new StripeCatalogue(options.prices ?? DEFAULT_STRIPE_PRICES),
    (event) => webhooks.publish(event),
    () => (webhooks.currentEndpoint === undefined ? 0 : 1),
  );
  const control: StripeControl = {
    get webhookEndpoint() {
      return webhooks.currentEndpoint;
    },
    setWebhookEndpoint: (endpoint) =>
      webhooks.setEndpoint(
        endpoint === undefined ? undefined : { url: endpoint.url, secret: endpoint.secret ?? secret },
      ),
    get deliveryMode() {
      return webhooks.currentMode;
    },
    setDeliveryMode: (mode) => webhooks.setMode(mode),
    releaseHeldEvents: (order = 'sent') => webhooks.release(order),
    resendEvent: (eventId) => webhooks.resend(eventId),
    events: () => webhooks.deliveries(),
    completeCheckout: (sessionId) =>
      account.checkoutSessionObject(account.completeCheckoutSession(sessionId), { url: null }),
    advanceSubscription: (subscriptionId, payment = 'succeeds') =>
      account.subscriptionObject(account.advanceToPeriodEnd(subscriptionId, payment)),
  };
  return { account, webhooks, control };
}
