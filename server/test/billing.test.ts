import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '@mediagen/simulator';
import { startNetworkLink } from '@mediagen/testing';
import {
  ACCOUNT_UPDATE_EVENT,
  DAY_MS,
  DEFAULT_GRACE_DAYS,
  DEFAULT_PLAN_RULES,
  type AccountUpdate,
  type BillingRedirect,
  type BillingState,
  type CheckoutBody,
  type GenerationKind,
} from '@mediagen/shared';
import { bearer, connectUserSocket, createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest } from './support/requests';
import { deliveredFor, pressButton, startStripeStandIn, stripeSettingsFor } from './support/stripe-stand-in';
import { createTestUser, type TestUser } from './support/users';

/**
 * Paid plans through the API (issue 38) on the simulator's Stripe stand-in: the real SDK's calls, the
 * hosted checkout and portal pages pressed as a browser's forms do, and the stand-in's signed webhooks
 * with its retries, duplicates, held and reordered deliveries and billing clock. Two servers share the
 * record (the real Auth emulator, PostgreSQL and Redis); the stand-in sends its webhooks to the first.
 */
let context: TestContext;
let simulator: Simulator;
let stripe: Stripe;
let database: pg.Client;
let first: TestApp;
let second: TestApp;
let settings: Record<string, string>;

const HANG_GUARD = { timeout: 15_000 };
const FOREIGN_PRICE = {
  id: 'price_of_another_product',
  lookupKey: 'another_monthly',
  productId: 'prod_another',
  productName: 'Another product',
  unitAmount: 500,
  currency: 'usd',
  interval: 'month' as const,
};

beforeAll(async () => {
  context = await createTestContext();
  simulator = await startStripeStandIn([FOREIGN_PRICE]);
  const { hostname, port } = new URL(simulator.url);
  // The test reads Stripe's side as an operator's dashboard would: through the API.
  stripe = new Stripe('sk_test_billing_test', { host: hostname, port: Number(port), protocol: 'http' });
  settings = { ...stripeSettingsFor(simulator), PUBLIC_URL: 'http://127.0.0.1:5173' };
  [first, second] = await Promise.all([context.start(settings), context.start(settings)]);
  simulator.stripe.setWebhookEndpoint({ url: webhookUrl(first) });
  database = new pg.Client({ connectionString: context.database.url });
  await database.connect();
});
afterEach(() => {
  simulator.clearFaults();
  simulator.stripe.setDeliveryMode({ duplicates: false, hold: false });
  simulator.stripe.setWebhookEndpoint({ url: webhookUrl(first) });
});
afterAll(async () => {
  await database.end();
  await context.cleanup();
  await simulator.close();
});

const webhookUrl = (server: TestApp) => `${server.origin}/api/billing/webhook`;
const json = { 'content-type': 'application/json' };

function post(server: TestApp, path: string, user: TestUser, body: unknown = {}) {
  return fetch(`${server.origin}${path}`, {
    method: 'POST',
    headers: { ...json, ...bearer(user) },
    body: JSON.stringify(body),
  });
}

async function billingOf(user: TestUser, server = first): Promise<BillingState> {
  const response = await fetch(`${server.origin}/api/billing`, { headers: bearer(user) });
  expect(response.status).toBe(200);
  return (await response.json()) as BillingState;
}

async function redirectFor(user: TestUser, path: string, body: unknown = {}, server = first): Promise<BillingRedirect> {
  const response = await post(server, path, user, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as BillingRedirect;
}

/** Checkout on Pricing, then Pay on the stand-in's hosted page, back at the app's success page. */
async function pay(user: TestUser, choice: CheckoutBody = { plan: 'pro', period: 'monthly' }) {
  const redirect = await redirectFor(user, '/api/billing/checkout', choice);
  expect(redirect.kind).toBe('checkout');
  const paid = await pressButton(redirect.url, 'pay');
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe('http://127.0.0.1:5173/payment?checkout=success');
  return redirect.url;
}

async function customerOf(user: TestUser): Promise<string> {
  const { rows } = await database.query<{ customer_id: string }>(
    'select customer_id from billing_customers where uid = $1',
    [user.uid],
  );
  if (rows[0] === undefined) throw new Error(`${user.email} has no customer`);
  return rows[0].customer_id;
}

/** The customer's subscriptions at Stripe, ended ones included. */
async function subscriptionsAtStripe(user: TestUser): Promise<Stripe.Subscription[]> {
  return (await stripe.subscriptions.list({ customer: await customerOf(user), status: 'all' })).data;
}

async function theSubscription(user: TestUser): Promise<Stripe.Subscription> {
  const subscriptions = await subscriptionsAtStripe(user);
  expect(subscriptions).toHaveLength(1);
  return subscriptions[0]!;
}

/** Ledger lines of one movement of the user's tokens of a kind (every plan change moves speech). */
async function ledgerLines(
  user: TestUser,
  movement: 'plan_change' | 'period_reset',
  kind: GenerationKind = 'speech',
): Promise<number> {
  const { rows } = await database.query<{ count: string }>(
    `select count(*) from token_ledger where uid = $1 and movement = $2 and kind = $3`,
    [user.uid, movement, kind],
  );
  return Number(rows[0]!.count);
}

async function tokensOf(user: TestUser, server = first) {
  const me = await apiClient(server.origin, user).me();
  expect(me.status).toBe(200);
  return me.body as { plan: string; tokens: Record<string, number>; allowance: Record<string, number> };
}

/** Every event about the user's customer has landed. */
const settled = async (user: TestUser) => {
  const customer = await customerOf(user);
  await expect.poll(() => deliveredFor(simulator, customer), HANG_GUARD).toBe(true);
};

function signed(event: Stripe.Event, secret = settings.STRIPE_WEBHOOK_SECRET!, timestamp?: number) {
  const body = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  return { body, signature };
}

function deliver(server: TestApp, delivery: { body: string; signature: string }) {
  return fetch(webhookUrl(server), {
    method: 'POST',
    headers: { ...json, 'stripe-signature': delivery.signature },
    body: delivery.body,
  });
}

/** The events the stand-in made while no endpoint listened: sent by the test itself. */
function eventsOf(types: string[], since: number): Stripe.Event[] {
  return simulator.stripe
    .events()
    .slice(since)
    .map((delivery) => delivery.event)
    .filter((event) => types.includes(event.type));
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

async function metric(server: TestApp, name: string): Promise<string[]> {
  const text = await (await fetch(`${server.origin}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith(name));
}

describe('checkout', () => {
  it('makes one customer per account, even from two tabs at once, each tab on a hosted page for the plan', async () => {
    const user = await createTestUser();
    const redirects = await Promise.all([
      redirectFor(user, '/api/billing/checkout', { plan: 'pro', period: 'yearly', trial: true }),
      redirectFor(user, '/api/billing/checkout', { plan: 'pro', period: 'yearly', trial: true }, second),
    ]);
    const customer = await customerOf(user);
    const made = simulator.stripe
      .events()
      .filter(({ event }) => event.type === 'customer.created')
      .filter(({ event }) => (event.data.object as Stripe.Customer).metadata.uid === user.uid);
    expect(made).toHaveLength(1);
    for (const redirect of redirects) {
      expect(redirect.kind).toBe('checkout');
      const id = /\/stripe\/checkout\/(cs_[^/?]+)$/.exec(redirect.url)?.[1] ?? '';
      const session = await stripe.checkout.sessions.retrieve(id);
      expect(session).toMatchObject({
        mode: 'subscription',
        customer,
        client_reference_id: user.uid,
        success_url: 'http://127.0.0.1:5173/payment?checkout=success',
        cancel_url: 'http://127.0.0.1:5173/payment?checkout=canceled',
      });
      const page = await (await fetch(redirect.url)).text();
      expect(page).toContain('$279');
      expect(page).toMatch(/7.day/i);
    }
  });

  it('paid on the hosted page: the plan shows once the webhook lands, live over the socket; a second checkout opens the portal', async () => {
    const user = await createTestUser();
    expect(await billingOf(user)).toMatchObject({
      plan: 'free',
      subscription: 'none',
      checkoutAvailable: true,
      trialDays: 7,
    });
    const { socket } = await connectUserSocket(second.origin, user.idToken);
    const updates: AccountUpdate[] = [];
    socket.on(ACCOUNT_UPDATE_EVENT, (update) => updates.push(update));
    try {
      await pay(user);
      await expect.poll(() => updates.at(-1)?.plan, HANG_GUARD).toBe('pro');
      expect(updates.at(-1)?.allowance).toEqual(DEFAULT_PLAN_RULES.pro.allowance);
      expect(await billingOf(user)).toMatchObject({
        plan: 'pro',
        source: 'billing',
        subscription: 'active',
        period: 'monthly',
        nextPlan: null,
      });
    } finally {
      socket.disconnect();
    }
    const again = await redirectFor(user, '/api/billing/checkout', { plan: 'enterprise', period: 'monthly' }, second);
    expect(again.kind).toBe('portal');
    expect(again.url).toMatch(/\/stripe\/portal\/bps_/);
    expect(await subscriptionsAtStripe(user)).toHaveLength(1);
  });

  it('a declined card leaves Free, and the same page pays afterwards', async () => {
    const user = await createTestUser();
    const redirect = await redirectFor(user, '/api/billing/checkout', { plan: 'pro', period: 'monthly' });
    const declined = await pressButton(redirect.url, 'decline');
    expect(declined.status).toBe(200); // as Stripe's page: the decline is in its text
    expect(await declined.text()).toContain('Your card was declined.');
    await settled(user);
    expect(await billingOf(user)).toMatchObject({ plan: 'free', subscription: 'none' });
    expect(await subscriptionsAtStripe(user)).toEqual([]);
    expect((await pressButton(redirect.url, 'pay')).status).toBe(303);
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('pro');
  });

  it('the portal needs a customer first: 409 with the one error shape', async () => {
    const user = await createTestUser();
    const response = await post(first, '/api/billing/portal', user);
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('NO_SUBSCRIPTION');
  });

  it('Stripe unreachable: 503 saying nothing was charged, and nothing changed', async () => {
    const user = await createTestUser();
    simulator.injectFault({ route: 'stripe.customers', fault: 'drop' });
    const response = await post(first, '/api/billing/checkout', user, { plan: 'pro', period: 'monthly' });
    expect(response.status).toBe(503);
    expect(await errorOf(response)).toEqual({
      code: 'CHECKOUT_UNAVAILABLE',
      message: 'Checkout is unavailable right now. You have not been charged. Please try again in a few minutes.',
    });
    expect(await billingOf(user)).toMatchObject({ plan: 'free', subscription: 'none' });
    await expect(customerOf(user)).rejects.toThrow(/no customer/);
  });

  it('the trial is granted once per person: a second checkout after the first ended is charged at once', async () => {
    const user = await createTestUser();
    expect(await billingOf(user)).toMatchObject({ trialAvailable: true });
    await pay(user, { plan: 'pro', period: 'monthly', trial: true });
    await expect.poll(async () => (await billingOf(user)).subscription, HANG_GUARD).toBe('trialing');
    expect(await billingOf(user)).toMatchObject({ plan: 'pro', trialAvailable: false });

    await stripe.subscriptions.update((await theSubscription(user)).id, { cancel_at_period_end: true });
    simulator.stripe.advanceSubscription((await theSubscription(user)).id);
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('free');

    const again = await redirectFor(user, '/api/billing/checkout', { plan: 'pro', period: 'monthly', trial: true });
    expect(await (await fetch(again.url)).text()).not.toMatch(/trial/i);
    expect((await pressButton(again.url, 'pay')).status).toBe(303);
    await expect.poll(async () => (await billingOf(user)).subscription, HANG_GUARD).toBe('active');
    const statuses = (await subscriptionsAtStripe(user)).map((subscription) => subscription.status).sort();
    expect(statuses).toEqual(['active', 'canceled']);
  });
});

describe('webhook', () => {
  it('a bad, missing or stale signature is refused with 400, nothing changed, counted; the real delivery applies', async () => {
    const user = await createTestUser();
    simulator.stripe.setDeliveryMode({ hold: true });
    await pay(user);
    const customer = await customerOf(user);
    const [created] = simulator.stripe
      .events()
      .filter(({ event, held }) => held && event.type === 'customer.subscription.created')
      .map(({ event }) => event)
      .filter((event) => (event.data.object as Stripe.Subscription).customer === customer);
    const forged = signed(created!, 'whsec_someoneelse');
    const stale = signed(created!, undefined, Math.floor(Date.now() / 1000) - 3600);
    for (const delivery of [forged, stale, { body: forged.body, signature: '' }]) {
      const response = await deliver(first, delivery);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe('WEBHOOK_REJECTED');
    }
    expect(await billingOf(user)).toMatchObject({ plan: 'free', subscription: 'none' });
    expect(await metric(first, 'mediagen_billing_webhook_rejections_total{reason="signature"}')).toEqual([
      expect.stringMatching(/ [3-9]\d*$|\d{2,}$/),
    ]);
    simulator.stripe.releaseHeldEvents();
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('pro');
  });

  it('an unknown price or an unknown customer is refused with 400 and changes nothing', async () => {
    const user = await createTestUser();
    await redirectFor(user, '/api/billing/checkout', { plan: 'pro', period: 'monthly' });
    const customer = await customerOf(user);
    // Sent by the test: Stripe would retry these refusals for days.
    simulator.stripe.setWebhookEndpoint(undefined);
    const since = simulator.stripe.events().length;
    const foreign = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price: FOREIGN_PRICE.id, quantity: 1 }],
      success_url: 'http://127.0.0.1:5173/elsewhere',
    });
    simulator.stripe.completeCheckout(foreign.id);
    const stranger = await stripe.customers.create({ email: 'stranger@example.test' });
    const strangers = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: stranger.id,
      line_items: [{ price: 'price_pro_monthly', quantity: 1 }],
      success_url: 'http://127.0.0.1:5173/elsewhere',
    });
    simulator.stripe.completeCheckout(strangers.id);
    const events = eventsOf(['customer.subscription.created', 'checkout.session.completed'], since);
    expect(events).toHaveLength(4);
    for (const event of events) expect((await deliver(first, signed(event))).status).toBe(400);
    expect(await billingOf(user)).toMatchObject({ plan: 'free', subscription: 'none' });
    expect(await metric(first, 'mediagen_billing_webhook_rejections_total{reason="unknown_price"}')).toHaveLength(1);
    expect(await metric(first, 'mediagen_billing_webhook_rejections_total{reason="unknown_customer"}')).toHaveLength(1);
    // Unknown price: the event is not marked applied, so a fixed configuration takes it later.
    expect((await deliver(first, signed(events[0]!))).status).toBe(400);
  });

  it('the same event delivered to two servers at the same moment, and every event twice at once, have one effect', async () => {
    const user = await createTestUser();
    simulator.stripe.setDeliveryMode({ duplicates: true });
    await pay(user, { plan: 'enterprise', period: 'yearly' });
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('enterprise');
    await settled(user);
    const customer = await customerOf(user);
    const paid = simulator.stripe
      .events()
      .map(({ event }) => event)
      .find((event) => event.type === 'invoice.paid' && (event.data.object as Stripe.Invoice).customer === customer);
    const delivery = signed(paid!);
    const responses = await Promise.all([
      deliver(first, delivery),
      deliver(second, delivery),
      deliver(first, delivery),
      deliver(second, delivery),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(await billingOf(user, second)).toMatchObject({ plan: 'enterprise', period: 'yearly' });
    expect(await ledgerLines(user, 'plan_change')).toBe(1);
    expect(await ledgerLines(user, 'period_reset')).toBe(0);
  });

  it('held events released in reverse leave the state Stripe holds now: paid, then upgraded in the portal', async () => {
    const user = await createTestUser();
    simulator.stripe.setDeliveryMode({ hold: true });
    await pay(user, { plan: 'pro', period: 'monthly' });
    const portal = await redirectFor(user, '/api/billing/portal');
    const switched = await pressButton(portal.url, 'switch', { price: 'price_enterprise_monthly' });
    expect(switched.headers.get('location')).toMatch(/notice=switched/);
    expect(await billingOf(user)).toMatchObject({ plan: 'free' });
    simulator.stripe.releaseHeldEvents('reversed');
    await settled(user);
    expect(await billingOf(user)).toMatchObject({ plan: 'enterprise', period: 'monthly', subscription: 'active' });
    // Every event read Stripe's state now: Free went straight to Enterprise, with its daily cap in full.
    expect(await ledgerLines(user, 'plan_change')).toBe(1);
    expect((await tokensOf(user)).tokens).toEqual(DEFAULT_PLAN_RULES.enterprise.allowance);
    expect(await subscriptionsAtStripe(user)).toHaveLength(1);
  });

  it('the server answering 5xx: Stripe retries the backlog and it catches up once', async () => {
    const user = await createTestUser();
    // The server cannot read the subscription back, so it answers 503 and Stripe delivers again.
    simulator.injectFault({ route: 'stripe.subscriptions', fault: 'http500' });
    await pay(user);
    const refused = () =>
      simulator.stripe.events().some(({ attempts }) => attempts.some((attempt) => attempt.status === 503));
    await expect.poll(refused, HANG_GUARD).toBe(true);
    expect(await billingOf(user)).toMatchObject({ plan: 'free' });
    simulator.clearFaults();
    await settled(user);
    expect(await billingOf(user)).toMatchObject({ plan: 'pro', subscription: 'active' });
    expect(await ledgerLines(user, 'plan_change')).toBe(1);
  });

  it('the server unreachable: the backlog arrives once it is reachable again', async () => {
    const user = await createTestUser();
    const link = await startNetworkLink({ host: '127.0.0.1', port: Number(new URL(first.origin).port) });
    try {
      simulator.stripe.setWebhookEndpoint({ url: `${link.url}/api/billing/webhook` });
      await link.cut();
      await pay(user);
      const unanswered = () =>
        simulator.stripe.events().filter(({ attempts }) => attempts.some((attempt) => attempt.status === null));
      await expect.poll(() => unanswered().length, HANG_GUARD).toBeGreaterThanOrEqual(4);
      expect(await billingOf(user)).toMatchObject({ plan: 'free' });
      await link.restore();
      await settled(user);
      expect(await billingOf(user)).toMatchObject({ plan: 'pro', subscription: 'active' });
      expect(await ledgerLines(user, 'plan_change')).toBe(1);
    } finally {
      await link.close();
    }
  });
});

describe('the billing clock', () => {
  it('a renewal gives a fresh allowance once, however often its invoice is delivered', async () => {
    const user = await createTestUser();
    await pay(user);
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('pro');
    const pro = DEFAULT_PLAN_RULES.pro.allowance;
    expect((await apiClient(first.origin, user).submit(imageRequest())).status).toBe(202);
    expect((await tokensOf(user)).tokens.image).toBe(pro.image - 1);

    const before = (await billingOf(user)).currentPeriodEnd;
    const renewed = simulator.stripe.advanceSubscription((await theSubscription(user)).id);
    await expect.poll(async () => (await billingOf(user)).currentPeriodEnd, HANG_GUARD).not.toBe(before);
    await settled(user);
    expect((await tokensOf(user)).tokens).toEqual(pro);
    expect(await ledgerLines(user, 'period_reset', 'image')).toBe(1);
    const renewal = simulator.stripe
      .events()
      .map(({ event }) => event)
      .filter((event): event is Stripe.InvoicePaidEvent => event.type === 'invoice.paid')
      .find(
        (event) =>
          event.data.object.parent?.subscription_details?.subscription === renewed.id &&
          event.data.object.billing_reason === 'subscription_cycle',
      );
    expect(simulator.stripe.resendEvent(renewal!.id)).toBe(true);
    await settled(user);
    expect(await ledgerLines(user, 'period_reset', 'image')).toBe(1);
  });

  it('a failing renewal is past due: the plan stays for the grace period, then the account is Free', async () => {
    const user = await createTestUser();
    await pay(user);
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('pro');
    simulator.stripe.advanceSubscription((await theSubscription(user)).id, 'fails');
    await expect.poll(async () => (await billingOf(user)).subscription, HANG_GUARD).toBe('past_due');
    const state = await billingOf(user);
    expect(state.plan).toBe('pro');
    const graceEndsAt = Date.parse(state.graceEndsAt ?? '');
    expect(graceEndsAt - Date.now()).toBeGreaterThan((DEFAULT_GRACE_DAYS - 1) * DAY_MS);

    // A server whose clock reads a day after the grace ended: what the user reads there is Free.
    const later = await context.start(settings, { clock: () => graceEndsAt + DAY_MS });
    try {
      // Stripe still retries the card (past due), but the plan it paid for is gone.
      expect(await billingOf(user, later)).toMatchObject({ plan: 'free', source: 'billing' });
      expect(await tokensOf(user, later)).toMatchObject({ plan: 'free', allowance: DEFAULT_PLAN_RULES.free.allowance });
    } finally {
      await later.close();
    }
  });

  it('a downgrade in the portal waits for the period end: nextPlan says it, then the new plan comes with its allowance', async () => {
    const user = await createTestUser();
    await pay(user, { plan: 'enterprise', period: 'yearly' });
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('enterprise');
    const portal = await redirectFor(user, '/api/billing/portal');
    const switched = await pressButton(portal.url, 'switch', { price: 'price_pro_monthly' });
    expect(switched.headers.get('location')).toMatch(/notice=scheduled/);
    await expect.poll(async () => (await billingOf(user)).nextPlan, HANG_GUARD).toBe('pro');
    const scheduled = await billingOf(user);
    expect(scheduled).toMatchObject({ plan: 'enterprise', period: 'yearly', subscription: 'active' });
    expect((await tokensOf(user)).allowance).toEqual(DEFAULT_PLAN_RULES.enterprise.allowance);

    simulator.stripe.advanceSubscription((await theSubscription(user)).id);
    await expect.poll(async () => (await billingOf(user)).plan, HANG_GUARD).toBe('pro');
    await settled(user);
    expect(await billingOf(user)).toMatchObject({ plan: 'pro', period: 'monthly', nextPlan: null });
    expect(await tokensOf(user)).toMatchObject({
      allowance: DEFAULT_PLAN_RULES.pro.allowance,
      tokens: DEFAULT_PLAN_RULES.pro.allowance,
    });
  });
});

describe('Contact Sales', () => {
  it('a visitor or a signed-in user sends a request operators read', async () => {
    const user = await createTestUser();
    const response = await post(first, '/api/sales', user, {
      company: 'Acme Films',
      volume: '10k-100k',
      message: 'We render trailers.',
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const page = await first.app.sales.list({ limit: 10 });
    expect(page.items.find((item) => item.id === id)).toMatchObject({
      uid: user.uid,
      email: user.email,
      company: 'Acme Films',
      volume: '10k-100k',
    });
  });
});
