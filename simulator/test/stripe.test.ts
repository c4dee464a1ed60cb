import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STRIPE_PRICES } from '../src/index';
import { startSimulator } from './helpers';
import { openCheckout, stripeClient, submitForm } from './stripeSupport';

/** The official `stripe` package against the stand-in: every endpoint the product calls. */
describe('Stripe stand-in through the official SDK', () => {
  it('creates and retrieves a customer', async () => {
    const stripe = stripeClient(await startSimulator());
    const created = await stripe.customers.create({ email: 'ada@example.com', metadata: { uid: 'user-1' } });
    expect(created).toMatchObject({ object: 'customer', email: 'ada@example.com', metadata: { uid: 'user-1' } });
    expect(created.id).toMatch(/^cus_/);
    expect(await stripe.customers.retrieve(created.id)).toEqual(created);
  });

  it('deletes a customer, ending its live subscription with it', async () => {
    const simulator = await startSimulator();
    const stripe = stripeClient(simulator);
    const { customer, session } = await openCheckout(stripe);
    simulator.stripe.completeCheckout(session.id);
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    expect(await stripe.customers.del(customer.id)).toEqual({ id: customer.id, object: 'customer', deleted: true });
    expect(await stripe.subscriptions.retrieve(subscription!.id)).toMatchObject({ status: 'canceled' });
    expect(await stripe.customers.retrieve(customer.id)).toEqual({
      id: customer.id,
      object: 'customer',
      deleted: true,
    });
    await expect(stripe.customers.del(customer.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it("answers an unknown id with Stripe's 404 resource_missing", async () => {
    const stripe = stripeClient(await startSimulator());
    const error = await stripe.customers.retrieve('cus_nobody').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such customer: 'cus_nobody'",
    });
  });

  it('refuses a missing or wrong key as an authentication error, and accepts only the configured key when set', async () => {
    const simulator = await startSimulator({ stripe: { secretKey: 'sk_test_right' } });
    for (const key of ['sk_test_wrong', 'sk_live_right']) {
      const error = await stripeClient(simulator, key)
        .customers.create({})
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
      expect((error as Error).message).toMatch(/^Invalid API Key provided: sk_(test|live)_\*+\w{4}$/);
    }
    const missing = await fetch(`${simulator.url}/v1/customers`, { method: 'POST' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: /did not provide an API key/ },
    });
    await expect(stripeClient(simulator, 'sk_test_right').customers.create({})).resolves.toMatchObject({
      object: 'customer',
    });
  });

  it('retrieves the default prices and finds them by lookup key', async () => {
    const stripe = stripeClient(await startSimulator());
    const price = await stripe.prices.retrieve('price_pro_yearly');
    expect(price).toMatchObject({
      unit_amount: 27900,
      currency: 'usd',
      product: 'prod_pro',
      lookup_key: 'pro_yearly',
      recurring: { interval: 'year', interval_count: 1 },
    });
    expect(price.unit_amount_decimal?.toString()).toBe('27900');
    const listed = await stripe.prices.list({ lookup_keys: ['enterprise_monthly', 'pro_monthly'] });
    expect(listed.data.map((each) => each.id).sort()).toEqual(['price_enterprise_monthly', 'price_pro_monthly']);
    expect(DEFAULT_STRIPE_PRICES.map((spec) => [spec.id, spec.unitAmount])).toEqual([
      ['price_pro_monthly', 2900],
      ['price_pro_yearly', 27900],
      ['price_enterprise_monthly', 9900],
      ['price_enterprise_yearly', 94900],
    ]);
  });

  it('sells from a catalogue given in the options', async () => {
    const prices = [{ ...DEFAULT_STRIPE_PRICES[0]!, id: 'price_custom', unitAmount: 1234 }];
    const stripe = stripeClient(await startSimulator({ stripe: { prices } }));
    await expect(stripe.prices.retrieve('price_custom')).resolves.toMatchObject({ unit_amount: 1234 });
    await expect(stripe.prices.retrieve('price_pro_monthly')).rejects.toMatchObject({ statusCode: 404 });
  });

  it("creates a Checkout Session whose url is the stand-in's hosted page, with everything the product sends", async () => {
    const simulator = await startSimulator();
    const stripe = stripeClient(simulator);
    const { customer, session } = await openCheckout(stripe, 'price_pro_yearly', {
      subscription_data: { trial_period_days: 7, metadata: { uid: 'user-1' } },
      automatic_tax: { enabled: true },
      customer_update: { address: 'auto' },
    });
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: 'user-1',
      metadata: { uid: 'user-1' },
      automatic_tax: { enabled: true },
      subscription: null,
      url: `${simulator.url}/stripe/checkout/${session.id}`,
    });
    expect(session.id).toMatch(/^cs_test_/);
    const page = await fetch(session.url!);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain('Subscribe to MediaGen Pro');
    expect(text).toContain('$279.00 per year');
    expect(text).toContain('7-day free trial');
  });

  it('retrieves a completed session with its subscription expanded', async () => {
    const simulator = await startSimulator();
    const stripe = stripeClient(simulator);
    const { session } = await openCheckout(stripe);
    simulator.stripe.completeCheckout(session.id);
    const retrieved = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(retrieved).toMatchObject({ status: 'complete', payment_status: 'paid', url: null });
    const subscription = retrieved.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({ object: 'subscription', status: 'active', metadata: {} });
    expect(subscription.items.data[0]!.price.id).toBe('price_pro_monthly');
  });

  it('refuses bad parameters with a 400 naming the parameter', async () => {
    const stripe = stripeClient(await startSimulator());
    const customer = await stripe.customers.create({});
    const cases: [Stripe.Checkout.SessionCreateParams, string][] = [
      [{ mode: 'subscription', customer: customer.id }, 'line_items'],
      [
        { mode: 'subscription', customer: customer.id, line_items: [{ price: 'price_gold', quantity: 1 }] },
        'line_items[0][price]',
      ],
      [{ mode: 'subscription', customer: 'cus_nobody', line_items: [{ price: 'price_pro_monthly' }] }, 'customer'],
      [
        {
          mode: 'subscription',
          customer: customer.id,
          line_items: [{ price: 'price_pro_monthly' }],
          subscription_data: { trial_period_days: 0 },
        },
        'subscription_data[trial_period_days]',
      ],
      [
        { mode: 'subscription', line_items: [{ price: 'price_pro_monthly' }], allow_promotion_codes: true },
        'allow_promotion_codes',
      ],
    ];
    for (const [params, param] of cases) {
      const error = await stripe.checkout.sessions.create(params).catch((caught: unknown) => caught);
      expect(error, param).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param, type: 'StripeInvalidRequestError' });
    }
  });

  it('answers the same Idempotency-Key with the same object, and refuses it with other parameters', async () => {
    const stripe = stripeClient(await startSimulator());
    const first = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup-1' });
    const again = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup-1' });
    expect(again.id).toBe(first.id);
    const error = await stripe.customers
      .create({ email: 'b@example.com' }, { idempotencyKey: 'signup-1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((error as Error).message).toContain("other than 'signup-1'");
  });

  it("creates a portal session whose url is the stand-in's portal page", async () => {
    const simulator = await startSimulator();
    const stripe = stripeClient(simulator);
    const customer = await stripe.customers.create({});
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://app.test/account',
    });
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: 'http://app.test/account',
    });
    expect(portal.url).toBe(`${simulator.url}/stripe/portal/${portal.id}`);
    const text = await (await fetch(portal.url)).text();
    expect(text).toContain('You have no active subscription.');
    expect(text).toContain('<a href="http://app.test/account">Return to MediaGen</a>');
    await expect(stripe.billingPortal.sessions.create({ customer: 'cus_nobody' })).rejects.toMatchObject({
      statusCode: 400,
      param: 'customer',
    });
  });

  it('retrieves, updates, lists and cancels subscriptions, and lists invoices', async () => {
    const simulator = await startSimulator();
    const stripe = stripeClient(simulator);
    const { customer, session } = await openCheckout(stripe);
    const subscriptionId = simulator.stripe.completeCheckout(session.id).subscription as string;

    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const [item] = subscription.items.data;
    expect(item!.current_period_end).toBeGreaterThan(item!.current_period_start);

    const upgraded = await stripe.subscriptions.update(subscriptionId, {
      items: [{ id: item!.id, price: 'price_enterprise_monthly' }],
      proration_behavior: 'none',
    });
    expect(upgraded.items.data[0]!.price.id).toBe('price_enterprise_monthly');
    const canceling = await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({
      cancel_at_period_end: true,
      cancel_at: item!.current_period_end,
      status: 'active',
    });

    const listed = await stripe.subscriptions.list({ customer: customer.id });
    expect(listed.data.map((each) => each.id)).toEqual([subscriptionId]);
    const invoices = await stripe.invoices.list({ customer: customer.id });
    expect(invoices.data).toHaveLength(1);
    expect(invoices.data[0]).toMatchObject({
      status: 'paid',
      amount_paid: 2900,
      billing_reason: 'subscription_create',
    });
    expect(invoices.data[0]!.parent?.subscription_details?.subscription).toBe(subscriptionId);

    const canceled = await stripe.subscriptions.cancel(subscriptionId);
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'cancellation_requested' } });
    expect(canceled.ended_at).not.toBeNull();
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toHaveLength(1);
    await expect(stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('expires an open Checkout Session, after which its page says so', async () => {
    const stripe = stripeClient(await startSimulator());
    const { session } = await openCheckout(stripe);
    await expect(stripe.checkout.sessions.expire(session.id)).resolves.toMatchObject({ status: 'expired', url: null });
    expect(await (await fetch(session.url!)).text()).toContain('This checkout session has expired.');
    const pay = await submitForm(`${session.url}/pay`);
    expect(pay.status).toBe(200);
    expect(await stripe.subscriptions.list({})).toMatchObject({ data: [] });
  });
});

describe('Stripe faults', () => {
  it('answers http500 and http429 with the bodies the SDK sorts into StripeAPIError and StripeRateLimitError', async () => {
    const simulator = await startSimulator({
      faults: [
        { route: 'stripe.checkout', fault: 'http500', times: 1 },
        { route: 'stripe.checkout', fault: 'http429', times: 1 },
      ],
    });
    const stripe = stripeClient(simulator);
    const customer = await stripe.customers.create({});
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: 'price_pro_monthly', quantity: 1 }],
    };
    await expect(stripe.checkout.sessions.create(params)).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    const limited = await stripe.checkout.sessions.create(params).catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(limited).toMatchObject({ code: 'rate_limit', statusCode: 429 });
    await expect(stripe.checkout.sessions.create(params)).resolves.toMatchObject({ status: 'open' });
    expect(simulator.stats().requests['stripe.checkout']).toBe(3);
  });

  it('hangs until the SDK gives up, which it reports as a connection error', async () => {
    const simulator = await startSimulator({ faults: [{ route: 'stripe.customers', fault: 'hang' }] });
    const error = await stripeClient(simulator, undefined, 300)
      .customers.create({})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
  });
});
