import { BILLING_PERIODS, PLANS, type BillingPeriod, type Plan, type PlanId } from '@mediagen/shared';

const PERIOD_SUFFIX: Record<BillingPeriod, string> = { monthly: '/month', yearly: '/year' };

export interface PriceLabel {
  amount: string;
  /** Empty when the plan has no price for the period. */
  per: string;
}

/** A null price (the spec shows none, e.g. Free billed yearly) reads as 'Free', not as an invented number. */
export function priceLabel(plan: Plan, period: BillingPeriod): PriceLabel {
  const price = plan.price[period];
  return price === null ? { amount: 'Free', per: '' } : { amount: `$${price}`, per: PERIOD_SUFFIX[period] };
}

/** What the pricing page hands to /payment in navigation state. */
export interface PaymentState {
  planId: PlanId;
  period: BillingPeriod;
}

/** Navigation state is whatever history holds, so it is checked before use. */
export function readPaymentState(state: unknown): { plan: Plan; period: BillingPeriod } | null {
  if (typeof state !== 'object' || state === null) return null;
  const { planId, period } = state as Partial<Record<keyof PaymentState, unknown>>;
  const plan = PLANS.find((candidate) => candidate.id === planId);
  const knownPeriod = BILLING_PERIODS.find((candidate) => candidate === period);
  if (plan === undefined || knownPeriod === undefined) return null;
  return { plan, period: knownPeriod };
}
