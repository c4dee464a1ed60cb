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

/** Spec §9: plans and prices. Display only: enforcement is not part of the spec. */
export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    title: 'Free',
    price: { monthly: 0, yearly: null },
    features: ['50 generations per month', 'Basic resolution', 'Standard speed', 'Community support'],
    limitations: ['Watermarked output', 'Standard queue'],
    buttonText: 'Get Started',
    buttonLink: '/payment',
    highlighted: false,
  },
  {
    id: 'pro',
    title: 'Pro',
    price: { monthly: 29, yearly: 279 },
    features: [
      '500 generations per month',
      'HD resolution',
      'Priority processing',
      'Email support',
      'Advanced features',
      'No watermark',
    ],
    buttonText: 'Start Free Trial',
    buttonLink: '/payment',
    highlighted: true,
  },
  {
    id: 'enterprise',
    title: 'Enterprise',
    price: { monthly: 99, yearly: 949 },
    features: [
      'Unlimited generations',
      '4K resolution',
      'Dedicated processing',
      '24/7 priority support',
      'Custom integration',
      'API access',
      'No watermark',
    ],
    buttonText: 'Contact Sales',
    buttonLink: '/payment',
    highlighted: false,
  },
];

export const YEARLY_SAVING_LABEL = 'Yearly (Save 20%)';
export const UPTIME_CLAIM = '99.9%';
