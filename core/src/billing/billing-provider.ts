import type { BillingPeriod, PaidPlanId } from '@mediagen/shared';

/**
 * What billing reads of a subscription, as the payment provider (Stripe) says it is now. Effects are
 * computed from this, never from an event's payload, so events may arrive in any order.
 */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  /** Stripe's status, as Stripe spells it (`active`, `trialing`, `past_due`, `canceled`, …). */
  status: string;
  priceId: string;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** Set when the subscription began with a trial. */
  trialEnd: Date | null;
  /**
   * The price a subscription schedule moves it to when the current period ends (the portal holds a
   * downgrade there until then); null without one. The plan follows `priceId` until Stripe changes it.
   */
  scheduledPriceId: string | null;
}

/** The provider's side of billing that the record's effects need (server/src/billing: Stripe's SDK). */
export interface SubscriptionSource {
  /** The subscription now; null when the provider no longer knows it (gone counts as ended). */
  subscription(id: string): Promise<SubscriptionSnapshot | null>;
  /** Ends it at once (no further charge); ending an ended one is not an error. */
  cancelNow(id: string): Promise<void>;
}

/** A webhook event reduced to what billing acts on; the rest of its payload is never trusted. */
export interface BillingEvent {
  id: string;
  type: string;
  customerId: string;
  subscriptionId: string;
  /** `invoice.paid`: Stripe's `billing_reason` (`subscription_cycle` for a renewal). */
  billingReason: string | null;
}

/** What each configured price sells: checked against the plan facts at start-up. */
export type PriceCatalogue = ReadonlyMap<string, { plan: PaidPlanId; period: BillingPeriod }>;

/** An event or subscription for a price that is not one of ours: refused, nothing changed. */
export class UnknownPriceError extends Error {
  override readonly name = 'UnknownPriceError';

  constructor(readonly priceId: string) {
    super(`price ${priceId} is not one of the configured prices`);
  }
}
