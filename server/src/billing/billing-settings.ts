import { MODE_VARIABLE, isLoopbackHost, readBillingGraceDays, wholeNumber, type EnvReader } from '@mediagen/core';
import {
  BILLING_PERIODS,
  DEFAULT_TRIAL_DAYS,
  PAID_PLAN_IDS,
  type BillingPeriod,
  type PaidPlanId,
} from '@mediagen/shared';
import { z } from 'zod';

/** Where the SDK sends its calls: Stripe itself unless STRIPE_API_URL names the stand-in. */
export interface StripeEndpoint {
  protocol: 'http' | 'https';
  host: string;
  port: number;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** The price id of each plan and period sold (STRIPE_PRICE_PRO_MONTHLY …). */
  prices: Record<PaidPlanId, Record<BillingPeriod, string>>;
  /** null: api.stripe.com. */
  endpoint: StripeEndpoint | null;
}

export interface BillingSettings {
  /** null without STRIPE_SECRET_KEY: checkout is unavailable (the app says so; nothing is sold). */
  stripe: StripeSettings | null;
  trialDays: number;
  graceDays: number;
  /** STRIPE_TAX: Stripe Tax computes and collects tax at checkout. */
  automaticTax: boolean;
}

/** `STRIPE_PRICE_PRO_MONTHLY`, and its three siblings. */
export const priceVariable = (plan: PaidPlanId, period: BillingPeriod) =>
  `STRIPE_PRICE_${plan.toUpperCase()}_${period.toUpperCase()}`;

const priceId = z.string().regex(/^[A-Za-z0-9_]{3,255}$/, { error: 'is not a Stripe price id' });
const apiUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/**
 * The billing settings. Without STRIPE_SECRET_KEY billing is off; with it, the webhook secret and every
 * price must be given too (a checkout that sells a price nobody configured would sell the wrong thing).
 * STRIPE_API_URL points the SDK at the stand-in: plain http only to a loopback host, and only in
 * development, so a key never travels in the clear.
 */
export function readBillingSettings(reader: EnvReader, development: boolean): BillingSettings {
  const trialDays =
    reader.read('BILLING_TRIAL_DAYS', wholeNumber(1, 90), String(DEFAULT_TRIAL_DAYS)) ?? DEFAULT_TRIAL_DAYS;
  const graceDays = readBillingGraceDays(reader);
  const automaticTax = reader.read('STRIPE_TAX', z.enum(['on', 'off']), 'off') === 'on';
  const secretKey = reader.read(
    'STRIPE_SECRET_KEY',
    z.string().regex(/^(sk|rk)_[A-Za-z0-9_]+$/, { error: 'is not a Stripe secret key' }),
  );
  if (secretKey === undefined) return { stripe: null, trialDays, graceDays, automaticTax };

  const needed = 'required when STRIPE_SECRET_KEY is set';
  const webhookSecret = reader.require(
    'STRIPE_WEBHOOK_SECRET',
    z.string().regex(/^whsec_[A-Za-z0-9_]+$/, { error: 'is not a Stripe webhook signing secret' }),
    needed,
  );
  const prices = Object.fromEntries(
    PAID_PLAN_IDS.map((plan) => [
      plan,
      Object.fromEntries(
        BILLING_PERIODS.map((period) => [period, reader.require(priceVariable(plan, period), priceId, needed) ?? '']),
      ),
    ]),
  ) as StripeSettings['prices'];
  const url = reader.read('STRIPE_API_URL', apiUrl);
  let endpoint: StripeEndpoint | null = null;
  if (url !== undefined) {
    const parsed = new URL(url);
    const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
    if (protocol === 'http' && !(development && isLoopbackHost(parsed.hostname))) {
      reader.problem(
        `STRIPE_API_URL may use plain http only to a loopback host with ${MODE_VARIABLE}=development ` +
          '(the secret key would travel in the clear)',
      );
    }
    endpoint = {
      protocol,
      host: parsed.hostname,
      port: parsed.port === '' ? (protocol === 'http' ? 80 : 443) : Number(parsed.port),
    };
  }
  return {
    stripe: { secretKey, webhookSecret: webhookSecret ?? '', prices, endpoint },
    trialDays,
    graceDays,
    automaticTax,
  };
}
