import type Stripe from 'stripe';
import { UnknownPriceError, type BillingRecord, type EventOutcome } from '@mediagen/core';
import {
  CHECKOUT_RETURN_PARAM,
  PAYMENT_RETURN_PATH,
  type BillingPeriod,
  type BillingRedirect,
  type BillingState,
  type CheckoutOutcome,
  type PaidPlanId,
} from '@mediagen/shared';
import { ServiceError } from '../http/errors';
import type { BillingSettings, StripeSettings } from './billing-settings';
import { billingEventOf } from './stripe-gateway';

export interface BillingServiceLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Why a webhook delivery was refused with 400 (the metric's label). */
export type WebhookRejection = 'signature' | 'unknown_price' | 'unknown_customer';

export interface BillingServiceOptions {
  settings: BillingSettings;
  /** null when billing is off (no STRIPE_SECRET_KEY). */
  stripe: Stripe | null;
  record: Pick<
    BillingRecord,
    'customerOf' | 'saveCustomer' | 'hasLiveSubscription' | 'trialUsed' | 'applyEvent' | 'view' | 'cancelPending'
  >;
  emailHash(email: string | null): string | null;
  events: {
    rejected(reason: WebhookRejection): void;
    received(type: string, outcome: EventOutcome['outcome'] | 'ignored'): void;
  };
  log: BillingServiceLogger;
  clock: () => number;
}

/** The signed-in user, as billing needs them. */
export interface Buyer {
  uid: string;
  email: string | null;
}

const NOT_CONFIGURED = 'Checkout is not available on this service yet. An administrator can change your plan.';

/**
 * Paid plans on the server (issue 38): Stripe Checkout and the customer portal for the signed-in user,
 * and Stripe's webhook events, verified and handed to the record (core's BillingRecord), which applies
 * each once. Stripe unreachable: checkout answers 503 having changed nothing; the webhook answers 5xx so
 * Stripe's retries deliver the event again once it can be read.
 */
export class BillingService {
  constructor(private readonly options: BillingServiceOptions) {}

  get available(): boolean {
    return this.options.stripe !== null;
  }

  async state(user: Buyer): Promise<BillingState> {
    const view = await this.options.record.view(user.uid, this.options.emailHash(user.email));
    return { ...view, checkoutAvailable: this.available, trialDays: this.options.settings.trialDays };
  }

  /**
   * A Checkout Session for the plan and period, or the portal when the account already pays for one (two
   * tabs never make two subscriptions; should both pay anyway, the record cancels the second). The trial
   * only when this person never had one. Stripe sends the browser back to `appOrigin`.
   */
  async checkout(
    user: Buyer,
    choice: { plan: PaidPlanId; period: BillingPeriod; trial: boolean },
    appOrigin: string,
  ): Promise<BillingRedirect> {
    const { stripe, stripeSettings } = this.configured();
    const { record, settings } = this.options;
    if (await record.hasLiveSubscription(user.uid)) return this.portal(user, appOrigin);
    const emailHash = this.options.emailHash(user.email);
    const trial = choice.trial && !(await record.trialUsed(emailHash));
    const returnTo = (outcome: CheckoutOutcome) =>
      `${appOrigin}${PAYMENT_RETURN_PATH}?${CHECKOUT_RETURN_PARAM}=${outcome}`;
    const session = await this.reachingStripe(async () => {
      const customer = await this.customerFor(stripe, user, emailHash);
      return stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: user.uid,
        line_items: [{ price: stripeSettings.prices[choice.plan][choice.period], quantity: 1 }],
        success_url: returnTo('success'),
        cancel_url: returnTo('canceled'),
        subscription_data: {
          metadata: { uid: user.uid },
          ...(trial ? { trial_period_days: settings.trialDays } : {}),
        },
        automatic_tax: { enabled: settings.automaticTax },
        // Stripe Tax needs the buyer's address; it is kept on the customer for renewals.
        ...(settings.automaticTax ? { customer_update: { address: 'auto' as const } } : {}),
      });
    });
    if (session.url === null) throw new ServiceError(503, 'CHECKOUT_UNAVAILABLE');
    this.options.log.info(
      { uid: user.uid, plan: choice.plan, period: choice.period, trial },
      'checkout session created',
    );
    return { kind: 'checkout', url: session.url };
  }

  /** The customer portal: change plan or period, update the card, cancel, see invoices; it returns to `appOrigin`. */
  async portal(user: Buyer, appOrigin: string): Promise<BillingRedirect> {
    const { stripe } = this.configured();
    const customer = await this.options.record.customerOf(user.uid);
    if (customer === null) throw new ServiceError(409, 'NO_SUBSCRIPTION');
    const session = await this.reachingStripe(() =>
      stripe.billingPortal.sessions.create({ customer, return_url: `${appOrigin}/dashboard` }),
    );
    return { kind: 'portal', url: session.url };
  }

  /**
   * A webhook delivery: the raw body verified against the endpoint secret (Stripe's default tolerance),
   * then applied by the record. A refusal is a 400 with nothing changed, logged and counted.
   */
  async receive(rawBody: Buffer, signature: string | undefined): Promise<void> {
    const { stripe, stripeSettings } = this.configured();
    const { events, log } = this.options;
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        stripeSettings.webhookSecret,
        undefined,
        undefined,
        this.options.clock(),
      );
    } catch (error) {
      throw this.rejected('signature', { err: error instanceof Error ? error.message : String(error) });
    }
    const billingEvent = billingEventOf(event);
    if (billingEvent === null) {
      events.received(event.type, 'ignored');
      return;
    }
    let outcome: EventOutcome;
    try {
      outcome = await this.options.record.applyEvent(billingEvent);
    } catch (error) {
      if (error instanceof UnknownPriceError) {
        throw this.rejected('unknown_price', { event: event.id, price: error.priceId });
      }
      log.warn({ err: error, event: event.id }, 'could not apply a billing event; Stripe will deliver it again');
      throw new ServiceError(503, 'NOT_READY');
    }
    if (outcome.outcome === 'unknown_customer') {
      throw this.rejected('unknown_customer', { event: event.id, customer: billingEvent.customerId });
    }
    events.received(event.type, outcome.outcome);
    log.info({ event: event.id, type: event.type, ...outcome }, 'billing event');
  }

  /**
   * Cancels at Stripe what closed accounts left billing (after each closure's commit, and periodically
   * for one that failed). Never throws: what is left is tried again on the next round.
   */
  async cancelClosedAccounts(): Promise<void> {
    if (this.options.stripe === null) return;
    try {
      const { canceled, left } = await this.options.record.cancelPending();
      for (const id of canceled)
        this.options.log.info({ subscription: id }, 'canceled a closed account’s subscription');
      if (left > 0) this.options.log.warn({ left }, 'closed accounts’ subscriptions still to cancel at Stripe');
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not cancel closed accounts’ subscriptions yet');
    }
  }

  private configured(): { stripe: Stripe; stripeSettings: StripeSettings } {
    const { stripe, settings } = this.options;
    if (stripe === null || settings.stripe === null) {
      throw new ServiceError(503, 'CHECKOUT_UNAVAILABLE', NOT_CONFIGURED);
    }
    return { stripe, stripeSettings: settings.stripe };
  }

  /** The account's one customer, made at its first checkout (two at once: the first saved stays). */
  private async customerFor(stripe: Stripe, user: Buyer, emailHash: string | null): Promise<string> {
    const existing = await this.options.record.customerOf(user.uid);
    if (existing !== null) return existing;
    const created = await stripe.customers.create(
      { ...(user.email === null ? {} : { email: user.email }), metadata: { uid: user.uid } },
      // Stripe answers a repeat within a day with the same customer.
      { idempotencyKey: `customer-${user.uid}` },
    );
    const kept = await this.options.record.saveCustomer(user.uid, created.id, emailHash);
    if (kept !== created.id) {
      await stripe.customers.del(created.id).catch((error: unknown) => {
        this.options.log.warn({ err: error, customer: created.id }, 'could not delete a customer made twice');
      });
    }
    return kept;
  }

  /** Stripe down or refusing: a plain 503 that says nothing was charged. */
  private async reachingStripe<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      this.options.log.warn({ err: error }, 'Stripe could not be reached for checkout');
      throw new ServiceError(503, 'CHECKOUT_UNAVAILABLE');
    }
  }

  private rejected(reason: WebhookRejection, details: object): ServiceError {
    this.options.events.rejected(reason);
    this.options.log.warn({ reason, ...details }, 'refused a billing webhook');
    return new ServiceError(400, 'WEBHOOK_REJECTED');
  }
}
