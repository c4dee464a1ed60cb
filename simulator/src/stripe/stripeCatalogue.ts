import Stripe from 'stripe';

/** One recurring price the stand-in sells, with its product. */
export interface StripePriceSpec {
  id: string;
  lookupKey: string;
  productId: string;
  productName: string;
  /** In cents. */
  unitAmount: number;
  currency: string;
  interval: 'month' | 'year';
}

/** The spec's prices: Pro $29 a month or $279 a year, Enterprise $99 or $949. */
export const DEFAULT_STRIPE_PRICES: readonly StripePriceSpec[] = [
  price('price_pro_monthly', 'pro_monthly', 'prod_pro', 'Pro', 2900, 'month'),
  price('price_pro_yearly', 'pro_yearly', 'prod_pro', 'Pro', 27900, 'year'),
  price('price_enterprise_monthly', 'enterprise_monthly', 'prod_enterprise', 'Enterprise', 9900, 'month'),
  price('price_enterprise_yearly', 'enterprise_yearly', 'prod_enterprise', 'Enterprise', 94900, 'year'),
];

function price(
  id: string,
  lookupKey: string,
  productId: string,
  productName: string,
  unitAmount: number,
  interval: 'month' | 'year',
): StripePriceSpec {
  return { id, lookupKey, productId, productName, unitAmount, currency: 'usd', interval };
}

/** The catalogue is fixed at start, so every object of it reads as made then. */
const CATALOGUE_CREATED = 1_735_689_600; // 2025-01-01

/** The price list a simulator sells from, by id. */
export class StripeCatalogue {
  private readonly byId: ReadonlyMap<string, StripePriceSpec>;

  constructor(readonly prices: readonly StripePriceSpec[]) {
    this.byId = new Map(prices.map((spec) => [spec.id, spec]));
  }

  find(priceId: string): StripePriceSpec | undefined {
    return this.byId.get(priceId);
  }

  get(priceId: string): StripePriceSpec {
    const spec = this.byId.get(priceId);
    if (spec === undefined) throw new Error(`no price ${priceId} in the catalogue`);
    return spec;
  }

  /** What the price costs over a year, to tell an upgrade from a downgrade whatever the intervals. */
  yearlyAmount(priceId: string): number {
    const spec = this.get(priceId);
    return spec.interval === 'year' ? spec.unitAmount : spec.unitAmount * 12;
  }
}

export function priceObject(spec: StripePriceSpec): Stripe.Price {
  return {
    id: spec.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: CATALOGUE_CREATED,
    currency: spec.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: spec.lookupKey,
    metadata: {},
    nickname: null,
    product: spec.productId,
    recurring: {
      interval: spec.interval,
      interval_count: 1,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: spec.unitAmount,
    unit_amount_decimal: Stripe.Decimal.from(spec.unitAmount),
  };
}

/** Subscription items still carry the legacy Plan beside the Price, with the same id. */
export function planObject(spec: StripePriceSpec): Stripe.Plan {
  return {
    id: spec.id,
    object: 'plan',
    active: true,
    amount: spec.unitAmount,
    amount_decimal: Stripe.Decimal.from(spec.unitAmount),
    billing_scheme: 'per_unit',
    created: CATALOGUE_CREATED,
    currency: spec.currency,
    interval: spec.interval,
    interval_count: 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: null,
    product: spec.productId,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}
