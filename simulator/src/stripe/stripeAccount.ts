import Stripe from 'stripe';
import { DAY_SECONDS, periodEnd } from './billingPeriods';
import type { StripeCatalogue } from './stripeCatalogue';
import { invalidRequest, resourceMissing, StripeRefusal } from './stripeErrors';
import { stripeId, nowSeconds } from './stripeIds';
import {
  checkoutSessionObject,
  customerObject,
  invoiceObject,
  subscriptionObject,
  type CheckoutSessionLinks,
} from './stripeObjects';
import type {
  CheckoutSessionRecord,
  CustomerRecord,
  InvoiceRecord,
  Metadata,
  NewCheckoutSession,
  PortalSessionRecord,
  ScheduleRecord,
  SubscriptionRecord,
} from './stripeRecords';

type EventType = Stripe.Event['type'];
type EventOf<T extends EventType> = Extract<Stripe.Event, { type: T }>;

/** The API request an event came from; null for what Stripe does by itself (a renewal, the hosted page). */
export type EventOrigin = { requestId: string; idempotencyKey: string | null } | null;

/** What a card does when it is charged at a period's end. */
export type RenewalPayment = 'succeeds' | 'fails';

/** Stripe's Checkout Sessions stay open for 24 hours. */
const CHECKOUT_LIFETIME_SECONDS = DAY_SECONDS;

/**
 * One Stripe account's objects, in memory, and what Stripe does to them: checkout, the portal's changes,
 * the API's updates and the passing of billing periods. Each change publishes the events Stripe sends
 * for it, rendered at the moment of the change.
 */
export class StripeAccount {
  private readonly customers = new Map<string, CustomerRecord>();
  /** Stripe still answers a deleted customer's id, with `deleted: true`. */
  private readonly deletedCustomers = new Set<string>();
  private readonly checkoutSessions = new Map<string, CheckoutSessionRecord>();
  private readonly subscriptions = new Map<string, SubscriptionRecord>();
  private readonly schedules = new Map<string, ScheduleRecord>();
  private readonly invoices = new Map<string, InvoiceRecord>();
  private readonly portalSessions = new Map<string, PortalSessionRecord>();

  constructor(
    readonly catalogue: StripeCatalogue,
    private readonly publish: (event: Stripe.Event) => void,
    private readonly webhookEndpoints: () => number,
  ) {}

  // Customers

  createCustomer(fields: { email: string | null; name: string | null; metadata: Metadata }, origin: EventOrigin) {
    const record: CustomerRecord = { id: stripeId('cus', 14), created: nowSeconds(), ...fields };
    this.customers.set(record.id, record);
    this.emit('customer.created', customerObject(record), origin);
    return record;
  }

  customer(id: string): CustomerRecord {
    return found(this.customers.get(id), 'customer', id);
  }

  /** GET /v1/customers/:id: the customer, or the stub Stripe answers for a deleted one. */
  customerOrDeleted(id: string): CustomerRecord | Stripe.DeletedCustomer {
    if (this.deletedCustomers.has(id)) return { id, object: 'customer', deleted: true };
    return this.customer(id);
  }

  hasCustomer(id: string): boolean {
    return this.customers.has(id);
  }

  /** DELETE /v1/customers/:id: as Stripe does, the customer's live subscriptions end at once with it. */
  deleteCustomer(id: string, origin: EventOrigin): Stripe.DeletedCustomer {
    const record = this.customer(id);
    for (const subscription of this.subscriptions.values()) {
      if (subscription.customerId === id && subscription.status !== 'canceled')
        this.end(subscription, nowSeconds(), 'cancellation_requested', origin);
    }
    this.customers.delete(id);
    this.deletedCustomers.add(id);
    this.emit('customer.deleted', customerObject(record), origin);
    return { id, object: 'customer', deleted: true };
  }

  // Checkout

  createCheckoutSession(fields: NewCheckoutSession): CheckoutSessionRecord {
    const created = nowSeconds();
    const record: CheckoutSessionRecord = {
      id: stripeId('cs_test', 58),
      created,
      expiresAt: created + CHECKOUT_LIFETIME_SECONDS,
      ...fields,
      customerEmail: fields.customerEmail ?? this.customers.get(fields.customerId ?? '')?.email ?? null,
      status: 'open',
      subscriptionId: null,
      invoiceId: null,
    };
    this.checkoutSessions.set(record.id, record);
    return record;
  }

  checkoutSession(id: string): CheckoutSessionRecord {
    const record = found(this.checkoutSessions.get(id), 'checkout.session', id, 'session');
    if (record.status === 'open' && record.expiresAt <= nowSeconds()) this.expireCheckoutSession(id, null);
    return record;
  }

  /** Pay on the hosted page (or a completed 3-D Secure): the subscription, its first invoice, the events. */
  completeCheckoutSession(id: string): CheckoutSessionRecord {
    const session = this.checkoutSession(id);
    if (session.status !== 'open') {
      throw new StripeRefusal(invalidRequest(`This Checkout Session is ${session.status} and can no longer be paid.`));
    }
    const customer =
      session.customerId === null
        ? this.createCustomer({ email: session.customerEmail, name: null, metadata: {} }, null)
        : this.customer(session.customerId);
    const spec = this.catalogue.get(session.priceId);
    const now = nowSeconds();
    const trialEnd = session.trialPeriodDays === null ? null : now + session.trialPeriodDays * DAY_SECONDS;
    const subscription: SubscriptionRecord = {
      id: stripeId('sub'),
      customerId: customer.id,
      itemId: stripeId('si', 14),
      itemCreated: now,
      priceId: spec.id,
      quantity: session.quantity,
      status: trialEnd === null ? 'active' : 'trialing',
      created: now,
      billingCycleAnchor: trialEnd ?? now,
      periodStart: now,
      periodEnd: trialEnd ?? periodEnd(now, spec.interval),
      trialStart: trialEnd === null ? null : now,
      trialEnd,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endedAt: null,
      cancellationReason: null,
      metadata: session.subscriptionMetadata,
      latestInvoiceId: null,
      scheduleId: null,
      automaticTax: session.automaticTax,
      defaultPaymentMethod: stripeId('pm'),
    };
    this.subscriptions.set(subscription.id, subscription);
    const invoice = this.createInvoice(subscription, {
      billingReason: 'subscription_create',
      // A trial's first invoice is for nothing; the first charge comes when the trial ends.
      amount: trialEnd === null ? spec.unitAmount * session.quantity : 0,
      periodStart: now,
      periodEnd: now,
    });
    session.status = 'complete';
    session.customerId = customer.id;
    session.customerEmail = session.customerEmail ?? customer.email;
    session.subscriptionId = subscription.id;
    session.invoiceId = invoice.id;

    this.emit('customer.subscription.created', this.subscriptionObject(subscription), null);
    this.emitInvoicePayment(invoice, null);
    this.emit('checkout.session.completed', this.checkoutSessionObject(session, { url: null }), null);
    return session;
  }

  expireCheckoutSession(id: string, origin: EventOrigin): CheckoutSessionRecord {
    const session = found(this.checkoutSessions.get(id), 'checkout.session', id, 'session');
    if (session.status !== 'open') {
      throw new StripeRefusal(invalidRequest('Only Checkout Sessions with a status in ["open"] can be expired.'));
    }
    session.status = 'expired';
    this.emit('checkout.session.expired', this.checkoutSessionObject(session, { url: null }), origin);
    return session;
  }

  checkoutSessionObject(record: CheckoutSessionRecord, links: CheckoutSessionLinks): Stripe.Checkout.Session {
    return checkoutSessionObject(record, this.catalogue, links);
  }

  // Portal

  createPortalSession(customerId: string, returnUrl: string | null): PortalSessionRecord {
    const record: PortalSessionRecord = {
      id: stripeId('bps', 24),
      created: nowSeconds(),
      customerId: this.customer(customerId).id,
      returnUrl,
    };
    this.portalSessions.set(record.id, record);
    return record;
  }

  portalSession(id: string): PortalSessionRecord {
    return found(this.portalSessions.get(id), 'billing_portal.session', id);
  }

  // Subscriptions

  subscription(id: string): SubscriptionRecord {
    return found(this.subscriptions.get(id), 'subscription', id);
  }

  subscriptionObject(record: SubscriptionRecord): Stripe.Subscription {
    return subscriptionObject(record, this.catalogue);
  }

  schedule(id: string): ScheduleRecord {
    return found(this.schedules.get(id), 'subscription_schedule', id);
  }

  /** Newest first, as Stripe lists. Without a status, every one that has not ended (Stripe's default). */
  listSubscriptions(filter: { customerId?: string; status?: string }): SubscriptionRecord[] {
    return [...this.subscriptions.values()]
      .filter((record) => filter.customerId === undefined || record.customerId === filter.customerId)
      .filter((record) =>
        filter.status === undefined
          ? record.status !== 'canceled' && record.status !== 'incomplete_expired'
          : filter.status === 'all' || record.status === filter.status,
      )
      .reverse();
  }

  /** The subscription the portal shows: the customer's newest one that has not ended. */
  currentSubscriptionOf(customerId: string): SubscriptionRecord | undefined {
    return this.listSubscriptions({ customerId })[0];
  }

  /** A new price, applied at once, as the API and the portal's upgrades do. */
  changePrice(id: string, priceId: string, origin: EventOrigin): SubscriptionRecord {
    const subscription = this.updatableSubscription(id);
    const spec = this.catalogue.get(priceId);
    return this.update(subscription, origin, () => {
      this.dropSchedule(subscription);
      const intervalChanged = this.catalogue.get(subscription.priceId).interval !== spec.interval;
      subscription.priceId = spec.id;
      if (!intervalChanged || subscription.status === 'trialing') return;
      // A change of interval restarts the billing cycle and is charged at once (Stripe's rule).
      const now = nowSeconds();
      subscription.billingCycleAnchor = now;
      subscription.periodStart = now;
      subscription.periodEnd = periodEnd(now, spec.interval);
      const invoice = this.createInvoice(subscription, {
        billingReason: 'subscription_update',
        amount: spec.unitAmount * subscription.quantity,
        periodStart: now,
        periodEnd: now,
      });
      return () => this.emitInvoicePayment(invoice, origin);
    });
  }

  /**
   * The portal's plan switch: a cheaper plan (by the year) waits for the period's end in a subscription
   * schedule, as the portal's `schedule_at_period_end` does; any other applies at once.
   */
  switchPlanFromPortal(id: string, priceId: string): SubscriptionRecord {
    const subscription = this.updatableSubscription(id);
    if (priceId === subscription.priceId) {
      return this.update(subscription, null, () => this.dropSchedule(subscription));
    }
    if (this.catalogue.yearlyAmount(priceId) >= this.catalogue.yearlyAmount(subscription.priceId)) {
      return this.changePrice(id, priceId, null);
    }
    return this.update(subscription, null, () => {
      this.dropSchedule(subscription);
      const next = this.catalogue.get(priceId);
      const schedule: ScheduleRecord = {
        id: stripeId('sub_sched'),
        created: nowSeconds(),
        subscriptionId: subscription.id,
        customerId: subscription.customerId,
        currentPriceId: subscription.priceId,
        phaseStart: subscription.periodStart,
        switchAt: subscription.periodEnd,
        nextPriceId: next.id,
        nextPhaseEnd: periodEnd(subscription.periodEnd, next.interval),
        status: 'active',
        releasedAt: null,
        canceledAt: null,
      };
      this.schedules.set(schedule.id, schedule);
      subscription.scheduleId = schedule.id;
    });
  }

  setCancelAtPeriodEnd(id: string, cancel: boolean, origin: EventOrigin): SubscriptionRecord {
    const subscription = this.updatableSubscription(id);
    return this.update(subscription, origin, () => {
      subscription.cancelAtPeriodEnd = cancel;
      subscription.canceledAt = cancel ? nowSeconds() : null;
      subscription.cancellationReason = cancel ? 'cancellation_requested' : null;
    });
  }

  /** The portal's "Update card": a new default payment method. */
  replaceCard(id: string): SubscriptionRecord {
    const subscription = this.updatableSubscription(id);
    return this.update(subscription, null, () => {
      subscription.defaultPaymentMethod = stripeId('pm');
    });
  }

  /** DELETE /v1/subscriptions/:id: ends it now. */
  cancelNow(id: string, origin: EventOrigin): SubscriptionRecord {
    const subscription = this.updatableSubscription(id);
    this.end(subscription, nowSeconds(), 'cancellation_requested', origin);
    return subscription;
  }

  /**
   * Moves the subscription to its period's end, as a test clock would: a pending cancel ends it, a pending
   * downgrade takes over, otherwise it renews and the card is charged. A past-due subscription's open
   * invoice is retried instead: paid, it is active again; failed again, Stripe gives up and cancels it.
   */
  advanceToPeriodEnd(id: string, payment: RenewalPayment): SubscriptionRecord {
    const subscription = this.updatableSubscription(id);
    if (subscription.status === 'past_due') return this.retryOpenInvoice(subscription, payment);
    const at = subscription.periodEnd;
    if (subscription.cancelAtPeriodEnd) {
      this.end(subscription, at, 'cancellation_requested', null);
      return subscription;
    }
    let renewal: InvoiceRecord | undefined;
    this.update(subscription, null, () => {
      const schedule = subscription.scheduleId === null ? undefined : this.schedules.get(subscription.scheduleId);
      if (schedule !== undefined) {
        subscription.priceId = schedule.nextPriceId;
        schedule.status = 'released';
        schedule.releasedAt = at;
        subscription.scheduleId = null;
      }
      const spec = this.catalogue.get(subscription.priceId);
      const previous = { start: subscription.periodStart, end: subscription.periodEnd };
      subscription.periodStart = at;
      subscription.periodEnd = periodEnd(at, spec.interval, subscription.billingCycleAnchor);
      subscription.status = payment === 'succeeds' ? 'active' : 'past_due';
      renewal = this.createInvoice(subscription, {
        billingReason: 'subscription_cycle',
        amount: spec.unitAmount * subscription.quantity,
        periodStart: previous.start,
        periodEnd: previous.end,
        fails: payment === 'fails',
      });
    });
    this.emitInvoicePayment(renewal!, null);
    return subscription;
  }

  // Invoices

  /** Newest first. */
  listInvoices(filter: { customerId?: string; subscriptionId?: string }): InvoiceRecord[] {
    return [...this.invoices.values()]
      .filter((record) => filter.customerId === undefined || record.customerId === filter.customerId)
      .filter((record) => filter.subscriptionId === undefined || record.subscriptionId === filter.subscriptionId)
      .reverse();
  }

  invoice(id: string): InvoiceRecord {
    return found(this.invoices.get(id), 'invoice', id);
  }

  invoiceObject(record: InvoiceRecord): Stripe.Invoice {
    return invoiceObject(record, this.catalogue);
  }

  private retryOpenInvoice(subscription: SubscriptionRecord, payment: RenewalPayment): SubscriptionRecord {
    const invoice = this.invoice(subscription.latestInvoiceId!);
    invoice.attemptCount += 1;
    if (payment === 'fails') {
      this.emit('invoice.payment_failed', this.invoiceObject(invoice), null);
      // Stripe's default once every retry has failed: cancel the subscription.
      this.end(subscription, nowSeconds(), 'payment_failed', null);
      return subscription;
    }
    invoice.status = 'paid';
    invoice.paidAt = nowSeconds();
    this.update(subscription, null, () => {
      subscription.status = 'active';
    });
    this.emitInvoicePayment(invoice, null);
    return subscription;
  }

  private createInvoice(
    subscription: SubscriptionRecord,
    fields: Pick<InvoiceRecord, 'billingReason' | 'amount' | 'periodStart' | 'periodEnd'> & { fails?: boolean },
  ): InvoiceRecord {
    const customer = this.customer(subscription.customerId);
    const sequence = this.listInvoices({ customerId: customer.id }).length + 1;
    const now = nowSeconds();
    const record: InvoiceRecord = {
      id: stripeId('in'),
      number: `${customerObject(customer).invoice_prefix}-${String(sequence).padStart(4, '0')}`,
      created: now,
      customerId: customer.id,
      customerEmail: customer.email,
      subscriptionId: subscription.id,
      itemId: subscription.itemId,
      priceId: subscription.priceId,
      quantity: subscription.quantity,
      amount: fields.amount,
      billingReason: fields.billingReason,
      periodStart: fields.periodStart,
      periodEnd: fields.periodEnd,
      servicePeriod: { start: subscription.periodStart, end: subscription.periodEnd },
      status: fields.fails === true ? 'open' : 'paid',
      paidAt: fields.fails === true ? null : now,
      attemptCount: 1,
      automaticTax: subscription.automaticTax,
    };
    this.invoices.set(record.id, record);
    subscription.latestInvoiceId = record.id;
    return record;
  }

  private emitInvoicePayment(invoice: InvoiceRecord, origin: EventOrigin): void {
    const object = this.invoiceObject(invoice);
    if (invoice.status === 'paid') {
      this.emit('invoice.paid', object, origin);
      this.emit('invoice.payment_succeeded', object, origin);
    } else {
      this.emit('invoice.payment_failed', object, origin);
    }
  }

  /** The subscription, refused once it has ended: Stripe changes nothing but metadata after that. */
  updatableSubscription(id: string): SubscriptionRecord {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled') {
      throw new StripeRefusal(
        invalidRequest('A canceled subscription can only update its cancellation_details and metadata.'),
      );
    }
    return subscription;
  }

  private dropSchedule(subscription: SubscriptionRecord): void {
    if (subscription.scheduleId === null) return;
    const schedule = this.schedules.get(subscription.scheduleId);
    if (schedule !== undefined) {
      schedule.status = 'released';
      schedule.releasedAt = nowSeconds();
    }
    subscription.scheduleId = null;
  }

  private end(
    subscription: SubscriptionRecord,
    at: number,
    reason: Stripe.Subscription.CancellationDetails.Reason,
    origin: EventOrigin,
  ): void {
    this.dropSchedule(subscription);
    subscription.status = 'canceled';
    subscription.endedAt = at;
    subscription.canceledAt = subscription.canceledAt ?? at;
    subscription.cancelAtPeriodEnd = false;
    subscription.cancellationReason = reason;
    this.emit('customer.subscription.deleted', this.subscriptionObject(subscription), origin);
  }

  /**
   * Applies a change and sends `customer.subscription.updated` with the previous values of the fields it
   * changed (top-level, as Stripe's `previous_attributes`); `change` may return what to send after it.
   */
  private update(subscription: SubscriptionRecord, origin: EventOrigin, change: () => void | (() => void)) {
    const before = this.subscriptionObject(subscription);
    const after = change();
    const object = this.subscriptionObject(subscription);
    const previous = changedFields(before, object);
    if (Object.keys(previous).length > 0) this.emit('customer.subscription.updated', object, origin, previous);
    if (typeof after === 'function') after();
    return subscription;
  }

  private emit<T extends EventType>(
    type: T,
    object: EventOf<T>['data']['object'],
    origin: EventOrigin,
    previousAttributes?: EventOf<T>['data']['previous_attributes'],
  ): void {
    const event = {
      id: stripeId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      // Rendered afresh from the records, so later changes never reach an event already sent.
      data: previousAttributes === undefined ? { object } : { object, previous_attributes: previousAttributes },
      livemode: false,
      pending_webhooks: this.webhookEndpoints(),
      request:
        origin === null
          ? { id: null, idempotency_key: null }
          : { id: origin.requestId, idempotency_key: origin.idempotencyKey },
      type,
      // The union of event types cannot be narrowed by a generic `type`; each caller's pair is checked above.
    } as unknown as Stripe.Event;
    this.publish(event);
  }
}

function found<T>(record: T | undefined, objectName: string, id: string, param = 'id'): T {
  if (record === undefined) throw new StripeRefusal(resourceMissing(objectName, id, param));
  return record;
}

function changedFields<T extends object>(before: T, after: T): Partial<T> {
  const previous: Partial<T> = {};
  for (const key of Object.keys(before) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return previous;
}
