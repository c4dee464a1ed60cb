import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_PLAN_RULES } from '@mediagen/shared';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import {
  AccountClosure,
  BillingRecord,
  GenerationLifecycle,
  UnknownPriceError,
  emailHash,
  newGenerationId,
  openDatabase,
  type BillingEvent,
  type PriceCatalogue,
  type RecordDatabase,
  type SubscriptionSnapshot,
  type SubscriptionSource,
} from '../src';

/**
 * Plans driven by billing events (issue 38), on the real record. Stripe's side is the provider port
 * (SubscriptionSource) over subscriptions this test holds, as Stripe would report them now: every effect
 * is computed from that, so events may be replayed, duplicated and reordered.
 */
let testDb: TestDatabase;
let database: RecordDatabase;
let now = Date.parse('2026-11-01T00:00:00Z');
let lifecycle: GenerationLifecycle;
let closure: AccountClosure;
let billing: BillingRecord;
/** The queue's half of plan changes (after each commit), as the job owner was asked. */
const reprioritized: { id: string; priority: number }[] = [];

/** Stripe's subscriptions as they are now, and what was canceled through the port. */
const stripe = new Map<string, SubscriptionSnapshot>();
const canceledAtStripe: string[] = [];
const source: SubscriptionSource = {
  async subscription(id) {
    const found = stripe.get(id);
    return found === undefined ? null : { ...found };
  },
  async cancelNow(id) {
    canceledAtStripe.push(id);
    const found = stripe.get(id);
    if (found !== undefined) stripe.set(id, { ...found, status: 'canceled' });
  },
};

const PRICES: PriceCatalogue = new Map([
  ['price_pro_monthly', { plan: 'pro', period: 'monthly' }],
  ['price_pro_yearly', { plan: 'pro', period: 'yearly' }],
  ['price_enterprise_monthly', { plan: 'enterprise', period: 'monthly' }],
  ['price_enterprise_yearly', { plan: 'enterprise', period: 'yearly' }],
]);
const GRACE_DAYS = 7;

beforeAll(async () => {
  testDb = await createTestDatabase('billing');
  database = openDatabase(testDb.url, { maxConnections: 10 });
  lifecycle = new GenerationLifecycle(database.db, { clock: () => now });
  closure = new AccountClosure(database.db, { clock: () => now });
  billing = new BillingRecord(database.db, {
    plans: DEFAULT_PLAN_RULES,
    prices: PRICES,
    source,
    graceDays: GRACE_DAYS,
    jobs: {
      async reprioritized(generation, priority) {
        reprioritized.push({ id: generation.id, priority });
        return true;
      },
    },
    log: { warn: () => undefined },
    clock: () => now,
  });
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

const HASH_KEY = 'test-key-of-at-least-thirty-two-characters';

/** A user who went through checkout once: their account's customer is recorded. */
async function customer(email = `${randomUUID()}@example.test`) {
  const uid = `user-${randomUUID()}`;
  const hash = emailHash(HASH_KEY, email);
  const customerId = await billing.saveCustomer(uid, `cus_${randomUUID()}`, hash);
  return { uid, hash, customerId };
}

/** Stripe made (or changed) a subscription: its state now. */
function subscribe(
  customerId: string,
  changes: Partial<SubscriptionSnapshot> = {},
  id = `sub_${randomUUID()}`,
): SubscriptionSnapshot {
  const subscription: SubscriptionSnapshot = {
    id,
    customerId,
    status: 'active',
    priceId: 'price_pro_monthly',
    currentPeriodStart: new Date(now),
    currentPeriodEnd: new Date(now + 30 * DAY_MS),
    cancelAtPeriodEnd: false,
    trialEnd: null,
    scheduledPriceId: null,
    ...stripe.get(id),
    ...changes,
  };
  stripe.set(id, subscription);
  return subscription;
}

const event = (
  subscription: SubscriptionSnapshot,
  type: string,
  billingReason: string | null = null,
): BillingEvent => ({
  id: `evt_${randomUUID()}`,
  type,
  customerId: subscription.customerId,
  subscriptionId: subscription.id,
  billingReason,
});

async function accountOf(uid: string) {
  return database.db.selectFrom('accounts').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
}

async function ledgerOf(uid: string) {
  return database.db.selectFrom('token_ledger').selectAll().where('uid', '=', uid).orderBy('id').execute();
}

async function spendOne(uid: string, hash: string) {
  const outcome = await lifecycle.submit({
    id: newGenerationId('speech'),
    uid,
    kind: 'speech',
    request: { prompt: 'hello' },
    prompt: 'hello',
    maxInFlight: 100,
    emailHash: hash,
  });
  expect(outcome.status).toBe('accepted');
}

describe('events delivered at least once, in any order', () => {
  it('replayed and duplicated events, two at the same moment included, leave one effect', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId, { priceId: 'price_pro_yearly' });
    const created = event(subscription, 'customer.subscription.created');
    const completed = event(subscription, 'checkout.session.completed');

    const outcomes = await Promise.all([
      billing.applyEvent(created),
      billing.applyEvent(created),
      billing.applyEvent(completed),
      billing.applyEvent(completed),
    ]);
    expect(outcomes.filter((outcome) => outcome.outcome === 'replayed')).toHaveLength(2);
    expect(await billing.applyEvent(created)).toEqual({ outcome: 'replayed' });

    const account = await accountOf(user.uid);
    expect(account).toMatchObject({ plan: 'pro', plan_source: 'billing' });
    expect([created.id, completed.id]).toContain(account.plan_reason);
    expect(account.speech_tokens).toBe(DEFAULT_PLAN_RULES.pro.allowance.speech);
    // One plan change: a line per kind that moved, naming the event that moved it.
    const lines = (await ledgerOf(user.uid)).filter((line) => line.movement === 'plan_change');
    expect(lines.map((line) => line.kind).sort()).toEqual(['image', 'speech', 'video']);
    expect(new Set(lines.map((line) => line.reason)).size).toBe(1);
    expect(await billing.view(user.uid, user.hash)).toMatchObject({
      plan: 'pro',
      source: 'billing',
      subscription: 'active',
      period: 'yearly',
      nextPlan: null,
      graceEndsAt: null,
    });
  });

  it('an old event arriving after the end reads the end, not its own payload', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId, { priceId: 'price_enterprise_monthly' });
    const created = event(subscription, 'customer.subscription.created');
    subscribe(user.customerId, { status: 'canceled' }, subscription.id);
    const deleted = event(subscription, 'customer.subscription.deleted');

    await billing.applyEvent(deleted);
    await billing.applyEvent(created);
    expect(await accountOf(user.uid).catch(() => null)).toBeNull();
    expect(await billing.view(user.uid, user.hash)).toMatchObject({ plan: 'free', subscription: 'none' });
  });

  it('an upgrade gives the new allowance at once, less what the period spent; a cancellation waits for the end', async () => {
    const user = await customer();
    await spendOne(user.uid, user.hash);
    const subscription = subscribe(user.customerId);
    await billing.applyEvent(event(subscription, 'customer.subscription.created'));
    expect((await accountOf(user.uid)).speech_tokens).toBe(DEFAULT_PLAN_RULES.pro.allowance.speech - 1);

    subscribe(user.customerId, { priceId: 'price_enterprise_monthly' }, subscription.id);
    await billing.applyEvent(event(subscription, 'customer.subscription.updated'));
    expect((await accountOf(user.uid)).plan).toBe('enterprise');

    subscribe(user.customerId, { cancelAtPeriodEnd: true }, subscription.id);
    await billing.applyEvent(event(subscription, 'customer.subscription.updated'));
    expect(await billing.view(user.uid, user.hash)).toMatchObject({
      plan: 'enterprise',
      subscription: 'canceled',
      nextPlan: 'free',
      currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    });

    subscribe(user.customerId, { status: 'canceled' }, subscription.id);
    await billing.applyEvent(event(subscription, 'customer.subscription.deleted'));
    expect(await accountOf(user.uid)).toMatchObject({ plan: 'free', plan_source: 'billing' });
  });

  it('a price that is not ours is refused and changes nothing', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId, { priceId: 'price_someone_else' });
    const created = event(subscription, 'customer.subscription.created');
    await expect(billing.applyEvent(created)).rejects.toBeInstanceOf(UnknownPriceError);
    expect(await billing.view(user.uid, user.hash)).toMatchObject({ plan: 'free', subscription: 'none' });
    // Not recorded: fixed prices make the same event apply on Stripe's next delivery.
    const recorded = await database.db
      .selectFrom('billing_events')
      .select('event_id')
      .where('event_id', '=', created.id)
      .execute();
    expect(recorded).toEqual([]);
  });

  it('an unknown customer changes nothing', async () => {
    const stranger = subscribe(`cus_${randomUUID()}`);
    expect(await billing.applyEvent(event(stranger, 'invoice.paid'))).toEqual({ outcome: 'unknown_customer' });
  });

  it('Stripe unreachable: the event is not recorded, so its retry applies it', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId);
    const created = event(subscription, 'customer.subscription.created');
    const reading = source.subscription;
    source.subscription = () => Promise.reject(new Error('connect ECONNREFUSED'));
    await expect(billing.applyEvent(created)).rejects.toThrow('ECONNREFUSED');
    source.subscription = reading;
    expect((await billing.applyEvent(created)).outcome).toBe('applied');
    expect((await accountOf(user.uid)).plan).toBe('pro');
  });

  it('a second live subscription of one account is canceled at once; the first stays', async () => {
    const user = await customer();
    const first = subscribe(user.customerId);
    const second = subscribe(user.customerId, { priceId: 'price_enterprise_yearly' });
    await billing.applyEvent(event(first, 'checkout.session.completed'));
    await billing.applyEvent(event(second, 'checkout.session.completed'));
    expect(canceledAtStripe).toContain(second.id);
    expect(canceledAtStripe).not.toContain(first.id);
    expect((await accountOf(user.uid)).plan).toBe('pro');
    expect(await billing.hasLiveSubscription(user.uid)).toBe(true);
  });
});

describe('renewals', () => {
  it('a paid renewal gives a fresh allowance once per billing period, however often or late it arrives', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId);
    await billing.applyEvent(event(subscription, 'customer.subscription.created'));
    await spendOne(user.uid, user.hash);
    // The first invoice is the subscription's own: no renewal.
    await billing.applyEvent(event(subscription, 'invoice.paid', 'subscription_create'));
    const full = DEFAULT_PLAN_RULES.pro.allowance.speech;
    expect((await accountOf(user.uid)).speech_tokens).toBe(full - 1);

    now += 10 * DAY_MS;
    subscribe(
      user.customerId,
      { currentPeriodStart: new Date(now), currentPeriodEnd: new Date(now + 30 * DAY_MS) },
      subscription.id,
    );
    const renewal = event(subscription, 'invoice.paid', 'subscription_cycle');
    const again = event(subscription, 'invoice.paid', 'subscription_cycle');
    await Promise.all([billing.applyEvent(renewal), billing.applyEvent(again), billing.applyEvent(renewal)]);
    const account = await accountOf(user.uid);
    expect(account.speech_tokens).toBe(full);
    expect(account.period_started_at.getTime()).toBe(now);
    await spendOne(user.uid, user.hash);
    // The same period's renewal delivered late changes nothing.
    await billing.applyEvent(event(subscription, 'invoice.paid', 'subscription_cycle'));
    expect((await accountOf(user.uid)).speech_tokens).toBe(full - 1);
    const resets = (await ledgerOf(user.uid)).filter((line) => line.movement === 'period_reset');
    expect(resets).toEqual([expect.objectContaining({ kind: 'speech', amount: 1 })]);
    expect([renewal.id, again.id]).toContain(resets[0]!.reason);
  });
});

describe('payment failure', () => {
  it('past due keeps the plan for the grace period, then falls back to Free; paying later restores it', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId);
    await billing.applyEvent(event(subscription, 'customer.subscription.created'));
    const failedAt = now;
    subscribe(user.customerId, { status: 'past_due' }, subscription.id);
    await billing.applyEvent(event(subscription, 'invoice.payment_failed'));
    expect(await billing.view(user.uid, user.hash)).toMatchObject({
      plan: 'pro',
      subscription: 'past_due',
      graceEndsAt: new Date(failedAt + GRACE_DAYS * DAY_MS).toISOString(),
    });
    // Stripe's retries fail again: the grace still counts from the first failure.
    now += 3 * DAY_MS;
    await billing.applyEvent(event(subscription, 'invoice.payment_failed'));
    expect(await billing.lapseExpiredGrace()).not.toContain(user.uid);

    now += 5 * DAY_MS;
    expect(await billing.lapseExpiredGrace()).toContain(user.uid);
    expect(await accountOf(user.uid)).toMatchObject({ plan: 'free', plan_source: 'billing' });
    expect(await billing.view(user.uid, user.hash)).toMatchObject({ plan: 'free', subscription: 'past_due' });

    subscribe(user.customerId, { status: 'active' }, subscription.id);
    await billing.applyEvent(event(subscription, 'invoice.paid', 'subscription_cycle'));
    expect(await billing.view(user.uid, user.hash)).toMatchObject({
      plan: 'pro',
      subscription: 'active',
      graceEndsAt: null,
    });
  });

  it('reading the billing state after the grace period settles it, before any sweep', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId, { status: 'past_due' });
    await billing.applyEvent(event(subscription, 'invoice.payment_failed'));
    expect((await accountOf(user.uid)).plan).toBe('pro');
    now += (GRACE_DAYS + 1) * DAY_MS;
    expect((await billing.view(user.uid, user.hash)).plan).toBe('free');
    expect((await accountOf(user.uid)).plan).toBe('free');
  });

  it("billing does not take back an operator's plan when no subscription pays for it", async () => {
    const user = await customer();
    await lifecycle.setPlan(user.uid, 'enterprise', 'sales deal 7');
    const ended = subscribe(user.customerId, { status: 'canceled' });
    await billing.applyEvent(event(ended, 'customer.subscription.deleted'));
    expect(await accountOf(user.uid)).toMatchObject({
      plan: 'enterprise',
      plan_source: 'operator',
      plan_reason: 'sales deal 7',
    });
  });
});

describe('trials and closure', () => {
  it('a trial is granted once per person, a closed account of the same email included', async () => {
    const email = `${randomUUID()}@example.test`;
    const user = await customer(email);
    expect((await billing.view(user.uid, user.hash)).trialAvailable).toBe(true);
    const trial = subscribe(user.customerId, { status: 'trialing', trialEnd: new Date(now + 7 * DAY_MS) });
    await billing.applyEvent(event(trial, 'customer.subscription.created'));
    expect(await billing.view(user.uid, user.hash)).toMatchObject({
      plan: 'pro',
      subscription: 'trialing',
      trialAvailable: false,
    });

    await closure.close(user.uid, user.hash);
    const again = await customer(email);
    expect(await billing.trialUsed(again.hash)).toBe(true);
    expect((await billing.view(again.uid, again.hash)).trialAvailable).toBe(false);
  });

  it('closing an account cancels its subscription at Stripe after the commit, and a late event of it cancels too', async () => {
    const user = await customer();
    const subscription = subscribe(user.customerId);
    await billing.applyEvent(event(subscription, 'customer.subscription.created'));
    await closure.close(user.uid, user.hash);
    // The record is gone but for what must still reach Stripe.
    expect(
      await database.db.selectFrom('billing_subscriptions').where('uid', '=', user.uid).selectAll().execute(),
    ).toEqual([]);
    expect(await billing.customerOf(user.uid)).toBeNull();
    expect(await billing.pendingCancellations()).toBeGreaterThan(0);

    const cancel = source.cancelNow;
    source.cancelNow = () => Promise.reject(new Error('connect ECONNREFUSED'));
    expect((await billing.cancelPending()).left).toBeGreaterThan(0);
    source.cancelNow = cancel;
    expect((await billing.cancelPending()).canceled).toContain(subscription.id);
    expect(stripe.get(subscription.id)?.status).toBe('canceled');
    expect(await billing.pendingCancellations()).toBe(0);

    // A checkout paid after the closure (the tab was still open): canceled when its event arrives.
    const late = subscribe(user.customerId);
    expect(await billing.applyEvent(event(late, 'checkout.session.completed'))).toEqual({
      outcome: 'closed_account',
    });
    expect(stripe.get(late.id)?.status).toBe('canceled');
  });
});
