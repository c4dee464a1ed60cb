import {
  PAID_PLAN_IDS,
  PLAN_TITLES,
  type BillingPeriod,
  type BillingState,
  type PaidPlanId,
  type Plan,
  type PlanId,
} from '@mediagen/shared';
import { ApiRequestError } from '@/lib/api-client';

/**
 * Whether a Stripe subscription runs for the account: a second one is never sold, so its plan changes go
 * through the portal. Past due still runs (the plan is kept through the grace period), and so does a
 * canceled one until its paid period ends (the portal is where it is renewed).
 */
export function hasLiveSubscription(billing: BillingState): boolean {
  return billing.subscription !== 'none';
}

/** A plan sold through checkout: Free is where every account starts, and what a confirmed checkout is not. */
export const isPaidPlan = (plan: PlanId): plan is PaidPlanId => (PAID_PLAN_IDS as readonly PlanId[]).includes(plan);

/** What "Start Free Trial" commits to: "7-day free trial, then $279 a year. Cancel before it ends to pay nothing." */
export function trialTerms(days: number, plan: Plan, period: BillingPeriod): string {
  const price = plan.price[period];
  const then = price === null ? '' : `, then $${price} a ${period === 'monthly' ? 'month' : 'year'}`;
  return `${days}-day free trial${then}. Cancel before it ends to pay nothing.`;
}

/** "March 4, 2027" in the reader's own format. */
export function dateInWords(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
}

/** Past due: what failed, by when to act and what is at stake; null when nothing is past due. */
export function pastDueMessage(billing: BillingState, now = Date.now()): string | null {
  if (billing.subscription !== 'past_due') return null;
  // Past the grace the account is on Free while Stripe still retries the card: paying brings the plan back.
  if (billing.graceEndsAt !== null && Date.parse(billing.graceEndsAt) <= now)
    return `Your last payment failed, so your account is back on ${PLAN_TITLES[billing.plan]}. Update your card to resume your subscription.`;
  const by = billing.graceEndsAt === null ? 'soon' : `by ${dateInWords(billing.graceEndsAt)}`;
  return `Your last payment failed. Update your card ${by} to keep ${PLAN_TITLES[billing.plan]}.`;
}

/** A cancel or downgrade that waits for the end of the paid period: "Pro until March 4, 2027, then Free". */
export function pendingChangeMessage(billing: BillingState): string | null {
  if (billing.nextPlan === null || billing.currentPeriodEnd === null) return null;
  return `${PLAN_TITLES[billing.plan]} until ${dateInWords(billing.currentPeriodEnd)}, then ${PLAN_TITLES[billing.nextPlan]}`;
}

/** Said when payments cannot be reached (Stripe down, the API down): nothing happened, so nothing was charged. */
export const BILLING_UNREACHABLE =
  'Payments cannot be reached right now. You have not been charged. Please try again shortly.';

/** A failed billing request in words: unreachable plainly, any other refusal in the API's own words. */
export function billingFailureMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError) || error.status === 0 || error.status === 503) return BILLING_UNREACHABLE;
  return error.message;
}
