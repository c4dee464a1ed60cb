import { DEFAULT_TRIAL_DAYS, type BillingState } from '@mediagen/shared';

/** GET /api/billing's answer for a Free account that may check out and may still have a trial. */
export function buildBillingState(overrides: Partial<BillingState> = {}): BillingState {
  return {
    plan: 'free',
    source: 'default',
    subscription: 'none',
    period: null,
    currentPeriodEnd: null,
    nextPlan: null,
    graceEndsAt: null,
    trialAvailable: true,
    checkoutAvailable: true,
    trialDays: DEFAULT_TRIAL_DAYS,
    ...overrides,
  };
}

/** The same account subscribed to `plan` through Stripe. */
export function subscribedBillingState(overrides: Partial<BillingState> = {}): BillingState {
  return buildBillingState({
    plan: 'pro',
    source: 'billing',
    subscription: 'active',
    period: 'monthly',
    currentPeriodEnd: '2027-03-04T12:00:00.000Z',
    trialAvailable: false,
    ...overrides,
  });
}
