import Stripe from 'stripe';
import type { BillingEvent, PriceCatalogue, SubscriptionSnapshot, SubscriptionSource } from '@mediagen/core';
import { BILLING_PERIODS, PAID_PLAN_IDS, PLAN_OFFERS } from '@mediagen/shared';
import type { StripeSettings } from './billing-settings';

/** Every call to Stripe gives up after this; the caller answers 503 (checkout) or 5xx (webhook). */
const STRIPE_TIMEOUT_MS = 10_000;

/** The SDK, pointed at Stripe or (STRIPE_API_URL) at the stand-in through its host/port/protocol settings. */
export function createStripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    // One retry of a connection failure; Stripe's own idempotency keys make it safe for creations.
    maxNetworkRetries: 1,
    ...(settings.endpoint === null
      ? {}
      : { host: settings.endpoint.host, port: settings.endpoint.port, protocol: settings.endpoint.protocol }),
  });
}

/** Which plan and period each configured price sells. */
export function priceCatalogue(settings: StripeSettings): PriceCatalogue {
  return new Map(
    PAID_PLAN_IDS.flatMap((plan) =>
      BILLING_PERIODS.map((period) => [settings.prices[plan][period], { plan, period }] as const),
    ),
  );
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;
const fromSeconds = (seconds: number) => new Date(seconds * 1000);

/**
 * A subscription as billing reads it (retrieved with `expand[]=schedule`); its first item holds the price
 * and the period (API 2025 and later).
 */
export function snapshotOf(subscription: Stripe.Subscription): SubscriptionSnapshot {
  const item = subscription.items.data[0];
  if (item === undefined) throw new Error(`subscription ${subscription.id} has no item`);
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    priceId: item.price.id,
    currentPeriodStart: fromSeconds(item.current_period_start),
    currentPeriodEnd: fromSeconds(item.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    trialEnd: subscription.trial_end === null ? null : fromSeconds(subscription.trial_end),
    scheduledPriceId: scheduledPriceOf(subscription, item.current_period_end),
  };
}

/** Schedule statuses under which its phases are still to come (released, completed or canceled: not). */
const RUNNING_SCHEDULES: ReadonlySet<Stripe.SubscriptionSchedule.Status> = new Set(['not_started', 'active']);

/**
 * The price the subscription's schedule puts in place when the current period ends (the portal's
 * `schedule_at_period_end` holds a downgrade there), read from the expanded `schedule`; null without one.
 */
function scheduledPriceOf(subscription: Stripe.Subscription, periodEnd: number): string | null {
  const { schedule } = subscription;
  if (schedule === null) return null;
  if (typeof schedule === 'string') throw new Error(`subscription ${subscription.id} was read without its schedule`);
  if (!RUNNING_SCHEDULES.has(schedule.status)) return null;
  const next = schedule.phases
    .filter((phase) => phase.start_date >= periodEnd)
    .sort((a, b) => a.start_date - b.start_date)[0];
  return idOf(next?.items[0]?.price) ?? null;
}

/**
 * A verified event reduced to what billing acts on: its customer and subscription. Null for a type that
 * moves no plan, or one that names no subscription (a one-off payment).
 */
export function billingEventOf(event: Stripe.Event): BillingEvent | null {
  const base = { id: event.id, type: event.type, billingReason: null };
  // Ifs rather than a switch: the six types that move plans out of Stripe's hundreds.
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    const subscriptionId = idOf(session.subscription);
    const customerId = idOf(session.customer);
    return subscriptionId === null || customerId === null ? null : { ...base, customerId, subscriptionId };
  }
  if (
    event.type === 'customer.subscription.created' ||
    event.type === 'customer.subscription.updated' ||
    event.type === 'customer.subscription.deleted'
  ) {
    const subscription = event.data.object;
    return { ...base, customerId: idOf(subscription.customer) ?? '', subscriptionId: subscription.id };
  }
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const invoice = event.data.object;
    const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
    const customerId = idOf(invoice.customer);
    if (subscriptionId === null || customerId === null) return null;
    return { ...base, customerId, subscriptionId, billingReason: invoice.billing_reason };
  }
  return null;
}

/** Stripe's "no such object" (deleted, or never ours). */
function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';
}

/** Billing's port to Stripe (core's SubscriptionSource). */
export class StripeSubscriptions implements SubscriptionSource {
  constructor(private readonly stripe: Stripe) {}

  async subscription(id: string): Promise<SubscriptionSnapshot | null> {
    try {
      return snapshotOf(await this.stripe.subscriptions.retrieve(id, { expand: ['schedule'] }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async cancelNow(id: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(id, {}, { idempotencyKey: `cancel-${id}` });
    } catch (error) {
      if (isMissing(error)) return;
      // Canceling a canceled subscription: it bills nothing already.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && /canceled/i.test(error.message)) return;
      throw error;
    }
  }
}

/**
 * The configured prices against the plan facts (shared/src/plan-facts.ts): amount in US dollars and the
 * interval. Returns what disagrees, in words for the log; checkout must not sell the wrong thing.
 */
export async function priceMismatches(stripe: Stripe, settings: StripeSettings): Promise<string[]> {
  const problems: string[] = [];
  for (const plan of PAID_PLAN_IDS) {
    for (const period of BILLING_PERIODS) {
      const id = settings.prices[plan][period];
      const price = await stripe.prices.retrieve(id);
      const dollars = PLAN_OFFERS[plan].price[period];
      const interval = period === 'monthly' ? 'month' : 'year';
      if (price.unit_amount !== (dollars === null ? null : dollars * 100) || price.currency !== 'usd') {
        problems.push(
          `${id} (${plan} ${period}) costs ${price.unit_amount ?? '?'} ${price.currency}, the plan facts say ${dollars} usd`,
        );
      }
      if (price.recurring?.interval !== interval || price.recurring.interval_count !== 1) {
        problems.push(
          `${id} (${plan} ${period}) renews every ${price.recurring?.interval_count ?? '?'} ${price.recurring?.interval ?? 'never'}, not every ${interval}`,
        );
      }
    }
  }
  return problems;
}
