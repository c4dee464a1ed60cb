/**
 * `pnpm smoke:billing`: Stripe as checkout uses it, once, against a test-mode key (STRIPE_SECRET_KEY in
 * .env or the environment): the configured prices against the plan facts, a customer, a Checkout Session
 * for each configured price, the webhook secret against a signed test event, and the customer deleted
 * again. A live key is refused (this makes objects); without a key nothing is called.
 */
import { existsSync } from 'node:fs';
import { EnvReader } from '@mediagen/core';
import { BILLING_PERIODS, PAID_PLAN_IDS } from '@mediagen/shared';
import { readBillingSettings } from '../src/billing/billing-settings';
import { createStripeClient, priceMismatches } from '../src/billing/stripe-gateway';

if (existsSync('.env')) process.loadEnvFile('.env');
const reader = new EnvReader(process.env);
const settings = readBillingSettings(reader, process.env.MEDIAGEN_MODE === 'development');
reader.finish('smoke:billing');

if (settings.stripe === null) {
  console.log('smoke:billing: STRIPE_SECRET_KEY is not set; nothing was called.');
  process.exit(0);
}
if (!settings.stripe.secretKey.startsWith('sk_test_') && !settings.stripe.secretKey.startsWith('rk_test_')) {
  console.error('smoke:billing: STRIPE_SECRET_KEY is not a test-mode key; refusing to make objects with it.');
  process.exit(1);
}

const stripe = createStripeClient(settings.stripe);
const started = Date.now();
const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
  const at = Date.now();
  const result = await run();
  console.log(`ok  ${name} (${Date.now() - at} ms)`);
  return result;
};

const problems = await step('prices agree with the plan facts', () => priceMismatches(stripe, settings.stripe!));
for (const problem of problems) console.error(`    MISMATCH: ${problem}`);
const customer = await step('customer created', () =>
  stripe.customers.create({ email: 'smoke-billing@example.com', metadata: { smoke: 'billing' } }),
);
try {
  for (const plan of PAID_PLAN_IDS) {
    for (const period of BILLING_PERIODS) {
      const session = await step(`checkout session for ${plan} ${period}`, () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customer.id,
          line_items: [{ price: settings.stripe!.prices[plan][period], quantity: 1 }],
          success_url: 'https://example.com/payment?checkout=success',
          cancel_url: 'https://example.com/payment?checkout=canceled',
          subscription_data: { trial_period_days: settings.trialDays },
          automatic_tax: { enabled: settings.automaticTax },
          ...(settings.automaticTax ? { customer_update: { address: 'auto' as const } } : {}),
        }),
      );
      await stripe.checkout.sessions.expire(session.id);
    }
  }
  await step('webhook secret verifies a signed test event', async () => {
    const payload = JSON.stringify({ id: 'evt_smoke', object: 'event', type: 'ping', data: { object: {} } });
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: settings.stripe!.webhookSecret });
    stripe.webhooks.constructEvent(payload, header, settings.stripe!.webhookSecret);
  });
} finally {
  await step('customer deleted', () => stripe.customers.del(customer.id));
}
console.log(`smoke:billing: done in ${Date.now() - started} ms${problems.length > 0 ? ', WITH PRICE MISMATCHES' : ''}`);
process.exit(problems.length > 0 ? 1 : 0);
