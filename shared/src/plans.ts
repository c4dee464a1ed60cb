export const BILLING_PERIODS = ['monthly', 'yearly'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const PLAN_IDS = ['free', 'pro', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  title: string;
  /** US dollars per period; null where the spec shows no price. */
  price: Record<BillingPeriod, number | null>;
  features: string[];
  limitations?: string[];
  buttonText: string;
  buttonLink: string;
  highlighted: boolean;
}

export const YEARLY_SAVING_LABEL = 'Yearly (Save 20%)';
export const UPTIME_CLAIM = '99.9%';
