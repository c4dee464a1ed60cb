import type Stripe from 'stripe';

/**
 * What the stand-in keeps of each Stripe object: the facts its answers are rendered from
 * (`stripeObjects.ts`), so an answer always has every field of the SDK's type and never a stale copy.
 */

export type Metadata = Record<string, string>;

export interface CustomerRecord {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  metadata: Metadata;
}

/** What a Checkout Session is created with (POST /v1/checkout/sessions). */
export interface NewCheckoutSession {
  customerId: string | null;
  customerEmail: string | null;
  priceId: string;
  quantity: number;
  successUrl: string | null;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  metadata: Metadata;
  trialPeriodDays: number | null;
  subscriptionMetadata: Metadata;
  automaticTax: boolean;
}

export interface CheckoutSessionRecord extends NewCheckoutSession {
  id: string;
  created: number;
  expiresAt: number;
  status: 'open' | 'complete' | 'expired';
  subscriptionId: string | null;
  invoiceId: string | null;
}

export interface SubscriptionRecord {
  id: string;
  customerId: string;
  itemId: string;
  itemCreated: number;
  priceId: string;
  quantity: number;
  status: Stripe.Subscription.Status;
  created: number;
  billingCycleAnchor: number;
  periodStart: number;
  periodEnd: number;
  trialStart: number | null;
  trialEnd: number | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
  endedAt: number | null;
  cancellationReason: Stripe.Subscription.CancellationDetails.Reason | null;
  metadata: Metadata;
  latestInvoiceId: string | null;
  /** A pending downgrade, as the portal's `schedule_at_period_end` makes one. */
  scheduleId: string | null;
  automaticTax: boolean;
  defaultPaymentMethod: string;
}

/** A two-phase schedule: the current price until `switchAt`, then `nextPriceId`, then released. */
export interface ScheduleRecord {
  id: string;
  created: number;
  subscriptionId: string;
  customerId: string;
  currentPriceId: string;
  phaseStart: number;
  switchAt: number;
  nextPriceId: string;
  nextPhaseEnd: number;
  status: 'active' | 'released' | 'canceled';
  releasedAt: number | null;
  canceledAt: number | null;
}

export interface InvoiceRecord {
  id: string;
  number: string;
  created: number;
  customerId: string;
  customerEmail: string | null;
  subscriptionId: string;
  itemId: string;
  priceId: string;
  quantity: number;
  amount: number;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  /** The invoice's own period: for a renewal, the period that ended (Stripe's convention). */
  periodStart: number;
  periodEnd: number;
  /** The period the line pays for. */
  servicePeriod: { start: number; end: number };
  status: 'paid' | 'open' | 'void';
  paidAt: number | null;
  attemptCount: number;
  automaticTax: boolean;
}

export interface PortalSessionRecord {
  id: string;
  created: number;
  customerId: string;
  returnUrl: string | null;
}
