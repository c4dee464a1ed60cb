import type { z } from 'zod';
import type {
  accountUpdateSchema,
  billingRedirectSchema,
  billingStateSchema,
  checkoutBodySchema,
  salesRequestBodySchema,
  salesRequestSchema,
} from './api-schemas';
import type { PlanId } from './plans';

/**
 * Paid plans (issue 38): Stripe Checkout and the customer portal, with plans set by Stripe's webhook
 * events. The constants and types both sides read; the zod schemas live in `api-schemas.ts`, so the
 * client's pages read these without bundling zod.
 */

/** The plans sold through checkout. Free is where every account starts and where a lapsed one returns. */
export const PAID_PLAN_IDS = ['pro', 'enterprise'] as const satisfies readonly PlanId[];
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

/** "Start Free Trial": days of a first subscription's trial, unless BILLING_TRIAL_DAYS says otherwise. */
export const DEFAULT_TRIAL_DAYS = 7;
/** Past due: days the plan stays while Stripe retries the card, unless BILLING_GRACE_DAYS says otherwise. */
export const DEFAULT_GRACE_DAYS = 7;

/** Who set an account's plan last: nobody yet (Free), billing (a Stripe event) or an operator by hand. */
export const PLAN_SOURCES = ['default', 'billing', 'operator'] as const;
export type PlanSource = (typeof PLAN_SOURCES)[number];

/**
 * A subscription's state as the app shows it. `none`: never subscribed, or the last one ended. `canceled`:
 * canceled at the period's end, still running until then (Stripe's status stays `active` meanwhile; a
 * subscription Stripe has ended reads as `none`). The rest are Stripe's own subscription statuses that the
 * app treats apart (every other Stripe status reads as `none`).
 */
export const SUBSCRIPTION_STATES = ['none', 'trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** Where Stripe sends a customer back after checkout or the portal: `/payment?checkout=success|canceled`. */
export const PAYMENT_RETURN_PATH = '/payment';
export const CHECKOUT_RETURN_PARAM = 'checkout';
export const CHECKOUT_OUTCOMES = ['success', 'canceled'] as const;
export type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

/** The Contact Sales page: Enterprise is sold by people, through a request operators read. */
export const CONTACT_SALES_PATH = '/contact-sales';
export const MAX_COMPANY_LENGTH = 200;
export const SALES_VOLUMES = ['under-1k', '1k-10k', '10k-100k', 'over-100k'] as const;
export type SalesVolume = (typeof SALES_VOLUMES)[number];
export const SALES_VOLUME_LABELS: Record<SalesVolume, string> = {
  'under-1k': 'Fewer than 1,000 generations a month',
  '1k-10k': '1,000 to 10,000 a month',
  '10k-100k': '10,000 to 100,000 a month',
  'over-100k': 'More than 100,000 a month',
};

/** Socket event: the account's plan or balance changed (a billing event, an operator, a renewal). */
export const ACCOUNT_UPDATE_EVENT = 'account:update';

/** POST /api/billing/checkout. */
export type CheckoutBody = z.input<typeof checkoutBodySchema>;
/** Where to send the browser next: Stripe's hosted checkout, or the portal when already subscribed. */
export type BillingRedirect = z.infer<typeof billingRedirectSchema>;
/** GET /api/billing. */
export type BillingState = z.infer<typeof billingStateSchema>;
/** POST /api/sales. */
export type SalesRequestBody = z.input<typeof salesRequestBodySchema>;
/** The `account:update` event's payload. */
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;
/** A Contact Sales request as operators read it. */
export type SalesRequestView = z.infer<typeof salesRequestSchema>;
