import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../src/index';
import { startSimulator } from './helpers';
import {
  openCheckout,
  startWebhookReceiver,
  stripeClient,
  submitForm,
  WEBHOOK_SECRET,
  type WebhookReceiver,
} from './stripeSupport';

const HANG_GUARD = { timeout: 10_000 };

/** A simulator sending its events to a receiver that verifies them with the SDK's constructEvent. */
async function billingSetup() {
  const receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  const simulator = await startSimulator({
    stripe: { webhookUrl: receiver.url, webhookSecret: WEBHOOK_SECRET, webhookRetry: { initialMs: 50, maxMs: 200 } },
  });
  return { simulator, receiver, stripe: stripeClient(simulator) };
}

const typesOf = (events: Stripe.Event[]) => events.map((event) => event.type);

function acceptedOfType<T extends Stripe.Event['type']>(receiver: WebhookReceiver, type: T) {
  return receiver.accepted.filter((event): event is Extract<Stripe.Event, { type: T }> => event.type === type);
}

/** Checkout paid through the control API; the subscription's id once its events have landed. */
async function subscribe(simulator: Simulator, stripe: Stripe, receiver: WebhookReceiver, price = 'price_pro_monthly') {
  const { customer, session } = await openCheckout(stripe, price);
  const completed = simulator.stripe.completeCheckout(session.id);
  await expect.poll(() => typesOf(receiver.accepted), HANG_GUARD).toContain('checkout.session.completed');
  return { customer, session, subscriptionId: completed.subscription as string };
}

describe('Stripe webhooks', () => {
  it('signs every event so that the SDK verifies it, and sends what Stripe sends when checkout is paid', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const { customer, session, subscriptionId } = await subscribe(simulator, stripe, receiver);
    await expect.poll(() => receiver.accepted.length, HANG_GUARD).toBe(5);
    // Deliveries run side by side, so they may land in any order, as Stripe's do.
    expect(typesOf(receiver.accepted).sort()).toEqual([
      'checkout.session.completed',
      'customer.created',
      'customer.subscription.created',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    for (const event of receiver.accepted) {
      expect(event).toMatchObject({
        object: 'event',
        api_version: '2026-10-28.endive',
        livemode: false,
        pending_webhooks: 1,
      });
      expect(event.id).toMatch(/^evt_/);
    }
    const [completed] = acceptedOfType(receiver, 'checkout.session.completed');
    expect(completed!.data.object).toMatchObject({
      id: session.id,
      customer: customer.id,
      subscription: subscriptionId,
      status: 'complete',
    });
    const [paid] = acceptedOfType(receiver, 'invoice.paid');
    expect(paid!.data.object).toMatchObject({
      billing_reason: 'subscription_create',
      amount_paid: 2900,
      status: 'paid',
    });
    const [created] = acceptedOfType(receiver, 'customer.subscription.created');
    const item = created!.data.object.items.data[0]!;
    expect(created!.data.object.status).toBe('active');
    expect(item.price.id).toBe('price_pro_monthly');
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    expect(receiver.deliveries[0]!.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('is refused by a receiver holding another secret', async () => {
    const receiver = await startWebhookReceiver('whsec_other');
    const simulator = await startSimulator({
      stripe: { webhookUrl: receiver.url, webhookRetry: { initialMs: 5000, maxMs: 5000 } },
    });
    await stripeClient(simulator).customers.create({});
    await expect.poll(() => simulator.stripe.events()[0]?.attempts.length, HANG_GUARD).toBe(1);
    expect(simulator.stripe.events()[0]).toMatchObject({ delivered: false, attempts: [{ status: 400 }] });
    expect(receiver.accepted).toEqual([]);
  });

  it('retries a delivery answered 500 until it is accepted', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    receiver.failNext(2);
    await stripe.customers.create({ email: 'retry@example.com' });
    await expect.poll(() => simulator.stripe.events()[0]?.delivered, HANG_GUARD).toBe(true);
    expect(receiver.accepted).toHaveLength(1);
    const [record] = simulator.stripe.events();
    expect(record!.attempts.map(({ attempt, status }) => [attempt, status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('retries when nothing answers, and delivers once the endpoint is up', async () => {
    const receiver = await startWebhookReceiver(WEBHOOK_SECRET);
    const simulator = await startSimulator({
      stripe: {
        webhookUrl: 'http://127.0.0.1:9/unreachable',
        webhookSecret: WEBHOOK_SECRET,
        webhookRetry: { initialMs: 50, maxMs: 100 },
      },
    });
    await stripeClient(simulator).customers.create({});
    await expect.poll(() => simulator.stripe.events()[0]?.attempts.length ?? 0, HANG_GUARD).toBeGreaterThan(1);
    expect(simulator.stripe.events()[0]!.attempts[0]).toMatchObject({ status: null, error: expect.any(String) });
    // New events go to the new endpoint; the stranded one is re-sent by hand, as from the Dashboard.
    simulator.stripe.setWebhookEndpoint({ url: receiver.url });
    expect(simulator.stripe.resendEvent(simulator.stripe.events()[0]!.event.id)).toBe(true);
    await expect.poll(() => receiver.accepted.length, HANG_GUARD).toBe(1);
  });

  it('delivers every event twice, both copies at the same moment, when asked for duplicates', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    simulator.stripe.setDeliveryMode({ duplicates: true });
    await stripe.customers.create({});
    await expect.poll(() => receiver.accepted.length, HANG_GUARD).toBe(2);
    const [first, second] = receiver.accepted;
    expect(second!.id).toBe(first!.id);
    // An attempt is recorded once its answer is back, which can be after the receiver has counted it.
    await expect
      .poll(
        () =>
          simulator.stripe
            .events()[0]!
            .attempts.map((attempt) => attempt.copy)
            .sort(),
        HANG_GUARD,
      )
      .toEqual([1, 2]);
  });

  it('holds events and releases them in reverse order', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const { session } = await openCheckout(stripe);
    simulator.stripe.setDeliveryMode({ hold: true });
    simulator.stripe.completeCheckout(session.id);
    const held = simulator.stripe
      .events()
      .filter((record) => record.held)
      .map((record) => record.event.type);
    expect(held).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'invoice.payment_succeeded',
      'checkout.session.completed',
    ]);
    simulator.stripe.setDeliveryMode({ hold: false });
    const released = simulator.stripe.releaseHeldEvents('reversed');
    expect(released).toHaveLength(4);
    // The receiver counts an event before its answer reaches the stand-in, so
    // wait for the stand-in's own record of each delivery.
    await expect
      .poll(
        () =>
          simulator.stripe
            .events()
            .filter((record) => released.includes(record.event.id))
            .every((record) => record.delivered),
        HANG_GUARD,
      )
      .toBe(true);
    expect(receiver.accepted).toHaveLength(5);
    // Released together they race; the attempts show the order they were sent in.
    expect(
      released.map((id) => simulator.stripe.events().find((record) => record.event.id === id)!.event.type),
    ).toEqual([...held].reverse());
  });

  it('offers the same controls over HTTP under /__sim/stripe', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const put = (path: string, body: unknown) =>
      fetch(`${simulator.url}${path}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(await (await put('/__sim/stripe/webhook/mode', { hold: true })).json()).toEqual({
      duplicates: false,
      hold: true,
    });
    expect((await put('/__sim/stripe/webhook/mode', { hold: 'yes' })).status).toBe(400);
    const { session } = await openCheckout(stripe);
    const completed = await fetch(`${simulator.url}/__sim/stripe/checkout/sessions/${session.id}/complete`, {
      method: 'POST',
    });
    expect(await completed.json()).toMatchObject({ id: session.id, status: 'complete' });
    const release = await fetch(`${simulator.url}/__sim/stripe/webhook/release`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'shuffled' }),
    });
    expect(((await release.json()) as { released: string[] }).released).toHaveLength(5);
    await expect.poll(() => simulator.stripe.events().every((record) => record.delivered), HANG_GUARD).toBe(true);
    expect(receiver.accepted).toHaveLength(5);
    const listed = (await (await fetch(`${simulator.url}/__sim/stripe/events?type=invoice.paid`)).json()) as {
      event: Stripe.Event;
      delivered: boolean;
    }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ delivered: true, event: { type: 'invoice.paid' } });
    const resent = await fetch(`${simulator.url}/__sim/stripe/events/${listed[0]!.event.id}/resend`, {
      method: 'POST',
    });
    expect(resent.status).toBe(204);
    await expect
      .poll(() => receiver.accepted.filter((event) => event.id === listed[0]!.event.id).length, HANG_GUARD)
      .toBe(2);
    expect((await fetch(`${simulator.url}/__sim/stripe/events/evt_nothing/resend`, { method: 'POST' })).status).toBe(
      404,
    );
    const unknown = await fetch(`${simulator.url}/__sim/stripe/subscriptions/sub_nothing/advance`, { method: 'POST' });
    expect(unknown.status).toBe(404);
  });
});

describe('the hosted checkout page', () => {
  it('Pay creates the subscription and returns to success_url with the session id filled in', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const { session } = await openCheckout(stripe, 'price_pro_yearly');
    const paid = await submitForm(`${session.url}/pay`);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://app.test/payment?checkout=success&session=${session.id}`);
    await expect.poll(() => typesOf(receiver.accepted), HANG_GUARD).toContain('checkout.session.completed');
    const [subscription] = (await stripe.subscriptions.list({})).data;
    expect(subscription!.items.data[0]!.price.recurring?.interval).toBe('year');
    expect(await (await fetch(session.url!)).text()).toContain('This checkout session is already complete.');
    expect(simulator.stripe.events().map((record) => record.event.type)).toContain('customer.subscription.created');
  });

  it('Decline says the card was declined, creates nothing, and lets the customer try again', async () => {
    const { simulator, stripe } = await billingSetup();
    const { session } = await openCheckout(stripe);
    const declined = await submitForm(`${session.url}/decline`);
    expect(declined.status).toBe(200);
    const text = await declined.text();
    expect(text).toContain('<p role="alert">Your card was declined.');
    expect(text).toContain('>Pay</button>');
    expect(text).toContain('<a href="http://app.test/payment?checkout=canceled">Back</a>');
    expect(await stripe.subscriptions.list({})).toMatchObject({ data: [] });
    expect(simulator.stripe.events().map((record) => record.event.type)).toEqual(['customer.created']);
    expect((await submitForm(`${session.url}/pay`)).status).toBe(303);
  });

  it('3-D Secure asks for authentication: completed it pays, failed it declines', async () => {
    const { stripe } = await billingSetup();
    const { session } = await openCheckout(stripe);
    const challenge = await (await submitForm(`${session.url}/three-d-secure`)).text();
    expect(challenge).toContain('>Complete authentication</button>');
    expect(challenge).toContain('>Fail authentication</button>');
    const failed = await submitForm(`${session.url}/three-d-secure/fail`);
    expect(await failed.text()).toContain('Your card was declined.');
    expect(await stripe.subscriptions.list({})).toMatchObject({ data: [] });
    const completed = await submitForm(`${session.url}/three-d-secure/complete`);
    expect(completed.status).toBe(303);
    expect((await stripe.subscriptions.list({})).data).toHaveLength(1);
  });

  it('a trial starts trialing with an invoice for nothing', async () => {
    const { receiver, stripe } = await billingSetup();
    const { session } = await openCheckout(stripe, 'price_pro_monthly', {
      subscription_data: { trial_period_days: 7 },
    });
    await submitForm(`${session.url}/pay`);
    await expect.poll(() => typesOf(receiver.accepted), HANG_GUARD).toContain('checkout.session.completed');
    const subscription = acceptedOfType(receiver, 'customer.subscription.created')[0]!.data.object;
    expect(subscription.status).toBe('trialing');
    expect(subscription.trial_end! - subscription.trial_start!).toBe(7 * 86_400);
    expect(subscription.items.data[0]!.current_period_end).toBe(subscription.trial_end);
    expect(acceptedOfType(receiver, 'invoice.paid')[0]!.data.object).toMatchObject({
      amount_paid: 0,
      billing_reason: 'subscription_create',
    });
    expect(acceptedOfType(receiver, 'checkout.session.completed')[0]!.data.object.payment_status).toBe(
      'no_payment_required',
    );
  });
});

describe('the customer portal', () => {
  async function portalFor(stripe: Stripe, customerId: string) {
    return stripe.billingPortal.sessions.create({ customer: customerId, return_url: 'http://app.test/account' });
  }

  it('upgrades at once, schedules a downgrade for the period end, cancels and renews, each with previous_attributes', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const { customer, subscriptionId } = await subscribe(simulator, stripe, receiver, 'price_pro_yearly');
    const portal = await portalFor(stripe, customer.id);
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Pro yearly: $279.00 per year');
    expect(page).toContain('>Switch to Enterprise monthly ($99.00 per month)</button>');
    const updates = () => acceptedOfType(receiver, 'customer.subscription.updated');

    const upgraded = await submitForm(`${portal.url}/switch`, { price: 'price_enterprise_monthly' });
    expect(upgraded.status).toBe(303);
    expect(upgraded.headers.get('location')).toBe(`/stripe/portal/${portal.id}?notice=switched`);
    await expect.poll(() => updates().length, HANG_GUARD).toBe(1);
    expect(updates()[0]!.data.object.items.data[0]!.price.id).toBe('price_enterprise_monthly');
    expect(updates()[0]!.data.previous_attributes?.items?.data[0]?.price.id).toBe('price_pro_yearly');
    // A change of interval restarts the cycle and is charged at once.
    await expect
      .poll(() => acceptedOfType(receiver, 'invoice.paid').map((event) => event.data.object.billing_reason), HANG_GUARD)
      .toEqual(['subscription_create', 'subscription_update']);

    const downgraded = await submitForm(`${portal.url}/switch`, { price: 'price_pro_monthly' });
    expect(downgraded.headers.get('location')).toContain('notice=scheduled');
    await expect.poll(() => updates().length, HANG_GUARD).toBe(2);
    expect(updates()[1]!.data.object.items.data[0]!.price.id).toBe('price_enterprise_monthly');
    expect(updates()[1]!.data.previous_attributes).toEqual({ schedule: null });
    const withSchedule = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['schedule'] });
    const schedule = withSchedule.schedule as Stripe.SubscriptionSchedule;
    expect(schedule.phases.map((phase) => phase.items[0]!.price)).toEqual([
      'price_enterprise_monthly',
      'price_pro_monthly',
    ]);
    expect(schedule.phases[1]!.start_date).toBe(withSchedule.items.data[0]!.current_period_end);
    expect(await (await fetch(portal.url)).text()).toContain('Switches to Pro monthly on');

    await submitForm(`${portal.url}/cancel`);
    await expect.poll(() => updates().length, HANG_GUARD).toBe(3);
    expect(updates()[2]!.data.object.cancel_at_period_end).toBe(true);
    expect(updates()[2]!.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    expect(await (await fetch(portal.url)).text()).toContain('>Renew plan</button>');

    await submitForm(`${portal.url}/renew`);
    await submitForm(`${portal.url}/update-card`);
    await expect.poll(() => updates().length, HANG_GUARD).toBe(5);
    expect(updates()[3]!.data.previous_attributes).toMatchObject({ cancel_at_period_end: true });
    expect(Object.keys(updates()[4]!.data.previous_attributes ?? {})).toEqual(['default_payment_method']);
    const final = await (await fetch(`${portal.url}?notice=card`)).text();
    expect(final).toContain('Your card was updated.');
    expect(final).toMatch(/<td>\$99\.00<\/td>\s*<td>paid<\/td>/);
  });
});

describe("advancing a subscription's clock", () => {
  it('renews: a new period and invoice.paid for subscription_cycle', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const { subscriptionId } = await subscribe(simulator, stripe, receiver);
    const before = (await stripe.subscriptions.retrieve(subscriptionId)).items.data[0]!;
    const renewed = simulator.stripe.advanceSubscription(subscriptionId);
    expect(renewed.items.data[0]!.current_period_start).toBe(before.current_period_end);
    await expect
      .poll(() => acceptedOfType(receiver, 'invoice.paid').map((event) => event.data.object.billing_reason), HANG_GUARD)
      .toEqual(['subscription_create', 'subscription_cycle']);
    const update = acceptedOfType(receiver, 'customer.subscription.updated')[0]!;
    expect(update.data.previous_attributes?.items?.data[0]?.current_period_end).toBe(before.current_period_end);
  });

  it('with a failing card: invoice.payment_failed and past_due; failing again cancels, paying recovers', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const first = await subscribe(simulator, stripe, receiver);
    expect(simulator.stripe.advanceSubscription(first.subscriptionId, 'fails').status).toBe('past_due');
    await expect.poll(() => typesOf(receiver.accepted), HANG_GUARD).toContain('invoice.payment_failed');
    expect(acceptedOfType(receiver, 'invoice.payment_failed')[0]!.data.object).toMatchObject({
      status: 'open',
      amount_paid: 0,
    });
    expect(simulator.stripe.advanceSubscription(first.subscriptionId, 'succeeds').status).toBe('active');
    expect(simulator.stripe.advanceSubscription(first.subscriptionId, 'fails').status).toBe('past_due');
    const ended = simulator.stripe.advanceSubscription(first.subscriptionId, 'fails');
    expect(ended).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'payment_failed' } });
    await expect.poll(() => typesOf(receiver.accepted), HANG_GUARD).toContain('customer.subscription.deleted');
  });

  it('applies a pending cancel and a pending downgrade at the period end', async () => {
    const { simulator, receiver, stripe } = await billingSetup();
    const { customer, subscriptionId } = await subscribe(simulator, stripe, receiver, 'price_enterprise_yearly');
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id });
    await submitForm(`${portal.url}/switch`, { price: 'price_pro_yearly' });
    const switched = simulator.stripe.advanceSubscription(subscriptionId);
    expect(switched).toMatchObject({ schedule: null, status: 'active' });
    expect(switched.items.data[0]!.price.id).toBe('price_pro_yearly');
    await expect
      .poll(() => acceptedOfType(receiver, 'invoice.paid').map((event) => event.data.object.amount_paid), HANG_GUARD)
      .toEqual([94900, 27900]);

    await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    const ended = simulator.stripe.advanceSubscription(subscriptionId);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(switched.items.data[0]!.current_period_end);
    await expect.poll(() => typesOf(receiver.accepted), HANG_GUARD).toContain('customer.subscription.deleted');
  });
});
