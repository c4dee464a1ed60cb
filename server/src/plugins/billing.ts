import fp from 'fastify-plugin';
import { BillingRecord, SalesRequests } from '@mediagen/core';
import { BillingService } from '../billing/billing-service';
import { StripeSubscriptions, createStripeClient, priceCatalogue, priceMismatches } from '../billing/stripe-gateway';

/** Subscriptions of closed accounts that could not be canceled at once are tried again this often. */
const CANCEL_RETRY_MS = 60_000;

/**
 * Billing (issue 38): the Stripe client (when STRIPE_SECRET_KEY is set), the record's billing part, the
 * service routes call, and Contact Sales requests. At start the configured prices are checked against
 * the plan facts and any disagreement is logged loudly; closed accounts' subscriptions still to cancel
 * are retried on a timer.
 */
export const billingPlugin = fp(
  async (app) => {
    const { config, metrics } = app;
    const settings = config.billing;
    const stripe = settings.stripe === null ? null : createStripeClient(settings.stripe);
    const record = new BillingRecord(app.database.db, {
      plans: config.plans,
      prices: settings.stripe === null ? new Map() : priceCatalogue(settings.stripe),
      source: stripe === null ? null : new StripeSubscriptions(stripe),
      graceDays: settings.graceDays,
      jobs: app.jobs,
      log: app.log,
      clock: app.clock,
    });
    const billing = new BillingService({
      settings,
      stripe,
      record,
      emailHash: app.emailHash,
      events: {
        rejected: (reason) => metrics.billingWebhookRejections.inc({ reason }),
        received: (type, outcome) => metrics.billingEvents.inc({ type, outcome }),
      },
      log: app.log,
      clock: app.clock,
    });
    app.decorate('billing', billing);
    app.decorate('sales', new SalesRequests(app.database.db, app.clock));

    if (stripe === null || settings.stripe === null) {
      app.log.warn('STRIPE_SECRET_KEY is not set: checkout is unavailable, plans change only by operators');
      return;
    }
    const stripeSettings = settings.stripe;
    priceMismatches(stripe, stripeSettings).then(
      (problems) => {
        for (const problem of problems) {
          app.log.error(`BILLING PRICE MISMATCH: ${problem}. Fix the price at Stripe or its STRIPE_PRICE_* setting.`);
        }
      },
      (error: unknown) => app.log.warn({ err: error }, 'could not check the configured prices at Stripe'),
    );
    const retry = setInterval(() => void billing.cancelClosedAccounts(), CANCEL_RETRY_MS);
    retry.unref();
    app.addHook('onClose', () => clearInterval(retry));
  },
  { name: 'billing', dependencies: ['infrastructure', 'services', 'metrics'], fastify: '5.x' },
);
