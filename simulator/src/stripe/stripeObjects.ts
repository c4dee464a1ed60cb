import Stripe from 'stripe';
import { planObject, priceObject, type StripeCatalogue } from './stripeCatalogue';
import type {
  CheckoutSessionRecord,
  CustomerRecord,
  InvoiceRecord,
  PortalSessionRecord,
  ScheduleRecord,
  SubscriptionRecord,
} from './stripeRecords';

/**
 * The stand-in's records rendered as the objects of the API version the `stripe` package pins: every
 * field of the SDK's type, `null` where this account has nothing to say. An expandable field holds the id
 * unless the caller passes the expanded object.
 */

/** Stripe Tax: on when the checkout asked for it; the stand-in never computes a tax amount. */
function automaticTax(enabled: boolean) {
  return { enabled, liability: enabled ? { type: 'self' as const } : null };
}

export function customerObject(record: CustomerRecord): Stripe.Customer {
  return {
    id: record.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: record.created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: record.email,
    invoice_prefix: record.id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: record.metadata,
    name: record.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export interface CheckoutSessionLinks {
  url: string | null;
  subscription?: Stripe.Subscription;
  customer?: Stripe.Customer;
  invoice?: Stripe.Invoice;
}

export function checkoutSessionObject(
  record: CheckoutSessionRecord,
  catalogue: StripeCatalogue,
  links: CheckoutSessionLinks,
): Stripe.Checkout.Session {
  const price = catalogue.get(record.priceId);
  const dueNow = record.trialPeriodDays === null ? price.unitAmount * record.quantity : 0;
  const complete = record.status === 'complete';
  return {
    id: record.id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: dueNow,
    amount_total: dueNow,
    automatic_tax: { ...automaticTax(record.automaticTax), provider: null, status: complete ? 'complete' : null },
    billing_address_collection: null,
    cancel_url: record.cancelUrl,
    client_reference_id: record.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: record.created,
    currency: price.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: links.customer ?? record.customerId,
    customer_account: null,
    customer_creation: record.customerId === null ? 'always' : null,
    customer_details: complete
      ? {
          address: null,
          business_name: null,
          email: record.customerEmail,
          individual_name: null,
          name: null,
          phone: null,
          tax_exempt: 'none',
          tax_ids: [],
        }
      : null,
    customer_email: record.customerEmail,
    discounts: [],
    expires_at: record.expiresAt,
    integration_identifier: null,
    invoice: links.invoice ?? record.invoiceId,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: record.metadata,
    mode: 'subscription',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: !complete ? 'unpaid' : dueNow === 0 ? 'no_payment_required' : 'paid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: record.status,
    submit_type: null,
    subscription: links.subscription ?? record.subscriptionId,
    success_url: record.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: record.status === 'open' ? links.url : null,
    wallet_options: null,
  };
}

export interface SubscriptionLinks {
  schedule?: Stripe.SubscriptionSchedule;
  latestInvoice?: Stripe.Invoice;
  customer?: Stripe.Customer;
}

export function subscriptionObject(
  record: SubscriptionRecord,
  catalogue: StripeCatalogue,
  links: SubscriptionLinks = {},
): Stripe.Subscription {
  const spec = catalogue.get(record.priceId);
  const item: Stripe.SubscriptionItem = {
    id: record.itemId,
    object: 'subscription_item',
    billing_thresholds: null,
    created: record.itemCreated,
    // Since API version 2025-03-31 the billing period lives on each item, not on the subscription.
    current_period_end: record.periodEnd,
    current_period_start: record.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planObject(spec),
    price: priceObject(spec),
    quantity: record.quantity,
    subscription: record.id,
    tax_rates: [],
  };
  return {
    id: record.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { ...automaticTax(record.automaticTax), disabled_reason: null },
    billing_cycle_anchor: record.billingCycleAnchor,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: record.cancelAtPeriodEnd ? record.periodEnd : null,
    cancel_at_period_end: record.cancelAtPeriodEnd,
    canceled_at: record.canceledAt,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: record.cancellationReason },
    collection_method: 'charge_automatically',
    created: record.created,
    currency: spec.currency,
    customer: links.customer ?? record.customerId,
    customer_account: null,
    days_until_due: null,
    default_payment_method: record.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: record.endedAt,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: {
      object: 'list',
      data: [item],
      has_more: false,
      url: `/v1/subscription_items?subscription=${record.id}`,
    },
    latest_invoice: links.latestInvoice ?? record.latestInvoiceId,
    livemode: false,
    managed_payments: null,
    metadata: record.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: links.schedule ?? record.scheduleId,
    start_date: record.created,
    status: record.status,
    test_clock: null,
    transfer_data: null,
    trial_end: record.trialEnd,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: record.trialStart,
  };
}

export function subscriptionScheduleObject(
  record: ScheduleRecord,
  catalogue: StripeCatalogue,
): Stripe.SubscriptionSchedule {
  const phase = (priceId: string, start: number, end: number): Stripe.SubscriptionSchedule.Phase => ({
    add_invoice_items: [],
    application_fee_percent: null,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency: catalogue.get(priceId).currency,
    default_payment_method: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: end,
    invoice_settings: null,
    items: [
      {
        billing_thresholds: null,
        discounts: [],
        metadata: {},
        plan: priceId,
        price: priceId,
        quantity: 1,
        tax_rates: [],
      },
    ],
    metadata: {},
    on_behalf_of: null,
    proration_behavior: 'none',
    start_date: start,
    transfer_data: null,
    trial_end: null,
  });
  const active = record.status === 'active';
  return {
    id: record.id,
    object: 'subscription_schedule',
    application: null,
    billing_mode: { flexible: null, type: 'classic' },
    canceled_at: record.canceledAt,
    completed_at: null,
    created: record.created,
    current_phase: active ? { start_date: record.phaseStart, end_date: record.switchAt } : null,
    customer: record.customerId,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      billing_cycle_anchor: 'automatic',
      billing_thresholds: null,
      collection_method: 'charge_automatically',
      default_payment_method: null,
      description: null,
      invoice_settings: {
        account_tax_ids: null,
        custom_fields: null,
        days_until_due: null,
        description: null,
        footer: null,
        issuer: { type: 'self' },
      },
      on_behalf_of: null,
      transfer_data: null,
    },
    // After its last phase the schedule lets the subscription go on by itself, as the portal's do.
    end_behavior: 'release',
    livemode: false,
    metadata: {},
    pause_schedules: [],
    phases: [
      phase(record.currentPriceId, record.phaseStart, record.switchAt),
      phase(record.nextPriceId, record.switchAt, record.nextPhaseEnd),
    ],
    released_at: record.releasedAt,
    released_subscription: record.status === 'released' ? record.subscriptionId : null,
    status: record.status,
    subscription: active ? record.subscriptionId : null,
    test_clock: null,
  };
}

export function invoiceObject(record: InvoiceRecord, catalogue: StripeCatalogue): Stripe.Invoice {
  const spec = catalogue.get(record.priceId);
  const paid = record.status === 'paid';
  const line: Stripe.InvoiceLineItem = {
    id: `il_${record.id.slice(3)}`,
    object: 'line_item',
    amount: record.amount,
    currency: spec.currency,
    description: `${record.quantity} × ${spec.productName} (at $${(spec.unitAmount / 100).toFixed(2)} / ${spec.interval})`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: record.id,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: record.subscriptionId,
        subscription_item: record.itemId,
      },
      type: 'subscription_item_details',
    },
    period: record.servicePeriod,
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: spec.id, product: spec.productId },
      type: 'price_details',
      unit_amount_decimal: Stripe.Decimal.from(spec.unitAmount),
    },
    quantity: record.quantity,
    quantity_decimal: Stripe.Decimal.from(record.quantity),
    subscription: record.subscriptionId,
    subtotal: record.amount,
    taxes: [],
  };
  return {
    id: record.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'MediaGen (Stripe stand-in)',
    account_tax_ids: null,
    amount_due: record.amount,
    amount_overpaid: 0,
    amount_paid: paid ? record.amount : 0,
    amount_remaining: paid ? 0 : record.amount,
    amount_shipping: 0,
    application: null,
    attempt_count: record.attemptCount,
    attempted: record.attemptCount > 0,
    auto_advance: !paid,
    automatic_tax: { ...automaticTax(record.automaticTax), disabled_reason: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: record.billingReason,
    collection_method: 'charge_automatically',
    created: record.created,
    currency: spec.currency,
    custom_fields: null,
    customer: record.customerId,
    customer_account: null,
    customer_address: null,
    customer_email: record.customerEmail,
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: record.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [line], has_more: false, url: `/v1/invoices/${record.id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: paid ? null : record.created + 3 * 86_400,
    number: record.number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: {}, subscription: record.subscriptionId },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: record.periodEnd,
    period_start: record.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: record.status,
    status_transitions: {
      finalized_at: record.created,
      marked_uncollectible_at: null,
      paid_at: record.paidAt,
      voided_at: null,
    },
    subtotal: record.amount,
    subtotal_excluding_tax: record.amount,
    test_clock: null,
    total: record.amount,
    total_discount_amounts: [],
    total_excluding_tax: record.amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: record.created,
  };
}

/** The portal's configuration is the account's default one: there is only one. */
export const PORTAL_CONFIGURATION_ID = 'bpc_standin_default';

export function portalSessionObject(record: PortalSessionRecord, url: string): Stripe.BillingPortal.Session {
  return {
    id: record.id,
    object: 'billing_portal.session',
    configuration: PORTAL_CONFIGURATION_ID,
    created: record.created,
    customer: record.customerId,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: record.returnUrl,
    url,
  };
}
