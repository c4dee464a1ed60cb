import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, DEFAULT_WEBHOOK_SECRET, type Simulator } from '@mediagen/simulator';
import { DEFAULT_PLAN_RULES, type BillingRedirect, type BillingState } from '@mediagen/shared';
import { startNetworkLink, type NetworkLink } from '@mediagen/testing';
import type { GenerationWorkers } from '@mediagen/worker';
import {
  createTestContext,
  createTestUser,
  startTestWorkers,
  type TestApp,
  type TestContext,
} from '@mediagen/server/testing';
import { REQUESTS, call, finalState, submit, tokens } from './support/api';
import { expectSettledOnce } from './support/balances';

/**
 * The Stripe stand-in unreachable mid-checkout (issue 38), through the whole stack: the server, real
 * workers making generations, the stand-in's hosted page and its retried webhooks. The stand-in keeps
 * its state in memory, so "unreachable" is a network cut, not a restart: the server reaches its API, and
 * it reaches the server's webhook endpoint, through TCP relays (`startNetworkLink`) that drop every
 * connection and refuse new ones until restored. The buyer's browser reaches the hosted page directly.
 */
let simulator: Simulator;
let context: TestContext;
let server: TestApp;
let workers: GenerationWorkers;
let api: NetworkLink;
let webhooks: NetworkLink;

const HANG_GUARD = { timeout: 30_000 };

beforeAll(async () => {
  simulator = createSimulator({ latencyMs: 0, stripe: { webhookRetry: { initialMs: 100, maxMs: 1000 } } });
  await simulator.listen();
  api = await startNetworkLink({ host: '127.0.0.1', port: Number(new URL(simulator.url).port) });
  context = await createTestContext();
  server = await context.start({
    STRIPE_SECRET_KEY: 'sk_test_mediagen_faults',
    STRIPE_WEBHOOK_SECRET: DEFAULT_WEBHOOK_SECRET,
    STRIPE_API_URL: api.url,
    STRIPE_PRICE_PRO_MONTHLY: 'price_pro_monthly',
    STRIPE_PRICE_PRO_YEARLY: 'price_pro_yearly',
    STRIPE_PRICE_ENTERPRISE_MONTHLY: 'price_enterprise_monthly',
    STRIPE_PRICE_ENTERPRISE_YEARLY: 'price_enterprise_yearly',
    PUBLIC_URL: 'http://127.0.0.1:5173',
  });
  webhooks = await startNetworkLink({ host: '127.0.0.1', port: Number(new URL(server.origin).port) });
  simulator.stripe.setWebhookEndpoint({ url: `${webhooks.url}/api/billing/webhook` });
  workers = await startTestWorkers(context, simulator);
});

afterAll(async () => {
  await workers?.close(1000);
  await context?.cleanup();
  await Promise.allSettled([api?.close(), webhooks?.close()]);
  await simulator?.close();
});

async function billing(user: Parameters<typeof call>[1]): Promise<BillingState> {
  const answer = await call<BillingState>(server.origin, user, 'GET', '/api/billing');
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Rows of the record, by table, for the user (what money and tokens were moved by). */
async function count(sql: string, uid: string): Promise<number> {
  const { rows } = await server.app.database.pool.query<{ count: string }>(sql, [uid]);
  return Number(rows[0]!.count);
}

describe('the Stripe stand-in unreachable mid-checkout', () => {
  it('nothing is lost once it returns: the payment lands once, the plan follows, one customer and subscription, tokens counted once', async () => {
    const user = await createTestUser();
    const before = await submit(server.origin, user, REQUESTS.image);
    expect(before.status).toBe(202);
    expect((await finalState(server.origin, user, before.body.id, 30_000)).status).toBe('completed');

    const checkout = await call<BillingRedirect>(server.origin, user, 'POST', '/api/billing/checkout', {
      plan: 'pro',
      period: 'monthly',
    });
    expect(checkout.status).toBe(200);
    expect(checkout.body.kind).toBe('checkout');
    // The page's address names the host the server reached (the relay); the browser goes straight there.
    const page = new URL(new URL(checkout.body.url).pathname, simulator.url).toString();

    // The cut, after the buyer was sent to the hosted page: neither side reaches the other.
    const since = simulator.stripe.events().length;
    await Promise.all([api.cut(), webhooks.cut()]);
    const paid = await fetch(`${page}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    // The payment's events, sent into the cut.
    const sent = () =>
      simulator.stripe
        .events()
        .slice(since)
        .filter(({ attempts }) => attempts.length > 0);
    await expect
      .poll(() => sent().filter(({ attempts }) => attempts.length >= 2).length, HANG_GUARD)
      .toBeGreaterThan(0);
    expect(sent().every(({ delivered }) => !delivered)).toBe(true);
    // Meanwhile the app keeps answering: still Free, and a second click says plainly nothing was charged.
    expect(await billing(user)).toMatchObject({ plan: 'free', subscription: 'none' });
    const again = await call<{ error: { code: string } }>(server.origin, user, 'POST', '/api/billing/checkout', {
      plan: 'pro',
      period: 'monthly',
    });
    // The account's customer is known, so the cut shows at the Checkout Session: refused, not made twice.
    expect(again.status).toBe(503);
    expect(again.body.error.code).toBe('CHECKOUT_UNAVAILABLE');

    // Half back: deliveries reach the server, which cannot read the subscription and answers 5xx.
    await webhooks.restore();
    await expect
      .poll(
        () =>
          sent().some(({ attempts }) => attempts.some((attempt) => attempt.status !== null && attempt.status >= 500)),
        HANG_GUARD,
      )
      .toBe(true);
    expect(await billing(user)).toMatchObject({ plan: 'free' });

    await api.restore();
    await expect.poll(async () => (await billing(user)).plan, HANG_GUARD).toBe('pro');
    await expect
      .poll(
        () => simulator.stripe.events().every(({ delivered, attempts }) => delivered || attempts.length === 0),
        HANG_GUARD,
      )
      .toBe(true);

    const events = simulator.stripe.events().map(({ event }) => event.type);
    expect(events.filter((type) => type === 'customer.created')).toHaveLength(1);
    expect(events.filter((type) => type === 'customer.subscription.created')).toHaveLength(1);
    expect(events.filter((type) => type === 'checkout.session.completed')).toHaveLength(1);
    expect(await billing(user)).toMatchObject({ plan: 'pro', source: 'billing', subscription: 'active' });
    expect(await count('select count(*) from billing_customers where uid = $1', user.uid)).toBe(1);
    expect(await count('select count(*) from billing_subscriptions where uid = $1', user.uid)).toBe(1);
    expect(
      await count(
        `select count(*) from token_ledger where uid = $1 and movement = 'plan_change' and kind = 'image'`,
        user.uid,
      ),
    ).toBe(1);

    // The upgrade gave Pro's allowance less what this period spent; the next image is counted once too.
    const pro = DEFAULT_PLAN_RULES.pro.allowance;
    expect((await tokens(server.origin, user)).image).toBe(pro.image - 1);
    const after = await submit(server.origin, user, REQUESTS.image);
    expect(after.status).toBe(202);
    expect((await finalState(server.origin, user, after.body.id, 30_000)).status).toBe('completed');
    expect((await tokens(server.origin, user)).image).toBe(pro.image - 2);
    await expectSettledOnce(server.app.database.db, [before.body.id, after.body.id]);
  });
});
