import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import type { ProviderGate } from '../faults/providerGate';
import { describeRequestError } from '../requestError';
import { honourIdempotencyKeys } from './idempotentRequests';
import { priceObject } from './stripeCatalogue';
import type { EventOrigin, StripeAccount } from './stripeAccount';
import type { NewCheckoutSession } from './stripeRecords';
import {
  apiError,
  invalidApiKey,
  invalidRequest,
  missingApiKey,
  parameterInvalid,
  resourceMissing,
  StripeRefusal,
  stripeFaultReplies,
} from './stripeErrors';
import { stripeId } from './stripeIds';
import { customerObject, portalSessionObject, subscriptionScheduleObject } from './stripeObjects';
import {
  expandOf,
  metadataOf,
  onlyKnown,
  optionalBoolean,
  optionalInteger,
  optionalObject,
  optionalString,
  parseParams,
  queryOf,
  requiredString,
  type Params,
} from './stripeParams';

interface StripeApiRoutesDeps {
  gate: ProviderGate;
  account: StripeAccount;
  /** The one secret key accepted; undefined accepts any test-mode key (`sk_test_…`). */
  secretKey: string | undefined;
}

type IdParams = { Params: { id: string } };

export const CHECKOUT_PAGE_PATH = '/stripe/checkout';
export const PORTAL_PAGE_PATH = '/stripe/portal';

/**
 * The Stripe API endpoints the product calls, as the `stripe` package reaches them through its
 * `host`/`port`/`protocol` settings: customers, prices, Checkout Sessions, portal sessions, subscriptions
 * and invoices, with Stripe's authentication, idempotency keys and error bodies.
 */
export function stripeApiRoutes({ gate, account, secretKey }: StripeApiRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, parseParams(body as string));
    });
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof StripeRefusal) return reply.code(error.answer.status).send(error.answer.body);
      const { statusCode, message } = describeRequestError(error);
      if (statusCode >= 500) return reply.code(500).send(apiError());
      return reply.code(statusCode).send(invalidRequest(message).body);
    });
    app.addHook('preHandler', async (request, reply) => {
      const refusal = authenticationProblem(request.headers.authorization, secretKey);
      if (refusal !== undefined) return reply.code(refusal.status).send(refusal.body);
    });
    honourIdempotencyKeys(app);
    // Every answer names its request, as Stripe's `Request-Id` does; events it caused carry the same id.
    const requestIds = new WeakMap<FastifyRequest, string>();
    app.addHook('onRequest', async (request, reply) => {
      const id = stripeId('req', 14);
      requestIds.set(request, id);
      void reply.header('request-id', id);
    });
    const originOf = (request: FastifyRequest): EventOrigin => {
      const key = request.headers['idempotency-key'];
      return { requestId: requestIds.get(request) ?? '', idempotencyKey: typeof key === 'string' ? key : null };
    };
    const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
    const guard = (route: Parameters<ProviderGate['guard']>[0]) => ({
      onRequest: gate.guard(route, stripeFaultReplies),
    });

    customerRoutes(app, account, guard('stripe.customers'), originOf);
    priceRoutes(app, account, guard('stripe.prices'));

    app.post('/v1/checkout/sessions', guard('stripe.checkout'), async (request) => {
      const params = bodyOf(request);
      const fields = readCheckoutSession(params, account);
      const session = account.createCheckoutSession(fields);
      return account.checkoutSessionObject(session, {
        url: `${baseUrlOf(request)}${CHECKOUT_PAGE_PATH}/${session.id}`,
      });
    });

    app.get<IdParams>('/v1/checkout/sessions/:id', guard('stripe.checkout'), async (request) => {
      const expand = expandOf(queryOf(request.url), ['subscription', 'customer', 'invoice']);
      const session = account.checkoutSession(request.params.id);
      return account.checkoutSessionObject(session, {
        url: `${baseUrlOf(request)}${CHECKOUT_PAGE_PATH}/${session.id}`,
        ...(expand.has('subscription') && session.subscriptionId !== null
          ? { subscription: account.subscriptionObject(account.subscription(session.subscriptionId)) }
          : {}),
        ...(expand.has('customer') && session.customerId !== null
          ? { customer: customerObjectOf(account, session.customerId) }
          : {}),
        ...(expand.has('invoice') && session.invoiceId !== null
          ? { invoice: account.invoiceObject(account.invoice(session.invoiceId)) }
          : {}),
      });
    });

    app.post<IdParams>('/v1/checkout/sessions/:id/expire', guard('stripe.checkout'), async (request) => {
      onlyKnown(bodyOf(request), ['expand']);
      const session = account.expireCheckoutSession(request.params.id, originOf(request));
      return account.checkoutSessionObject(session, { url: null });
    });

    app.post('/v1/billing_portal/sessions', guard('stripe.portal'), async (request) => {
      const params = bodyOf(request);
      onlyKnown(params, ['customer', 'return_url', 'configuration', 'locale', 'expand']);
      const customerId = requiredString(params, 'customer');
      if (!account.hasCustomer(customerId))
        throw new StripeRefusal({ ...resourceMissing('customer', customerId, 'customer'), status: 400 });
      const session = account.createPortalSession(customerId, optionalString(params, 'return_url'));
      return portalSessionObject(session, `${baseUrlOf(request)}${PORTAL_PAGE_PATH}/${session.id}`);
    });

    subscriptionRoutes(app, account, guard('stripe.subscriptions'), originOf);

    app.get('/v1/invoices', guard('stripe.invoices'), async (request) => {
      const params = queryOf(request.url);
      onlyKnown(params, ['customer', 'subscription', 'limit', 'status', 'expand']);
      const records = account.listInvoices({
        customerId: optionalString(params, 'customer') ?? undefined,
        subscriptionId: optionalString(params, 'subscription') ?? undefined,
      });
      return listOf(
        '/v1/invoices',
        limited(records, params).map((record) => account.invoiceObject(record)),
        records,
      );
    });

    app.get<IdParams>('/v1/invoices/:id', guard('stripe.invoices'), async (request) =>
      account.invoiceObject(account.invoice(request.params.id)),
    );
  };
}

function customerRoutes(
  app: FastifyInstance,
  account: StripeAccount,
  guard: object,
  originOf: (request: FastifyRequest) => EventOrigin,
) {
  app.post('/v1/customers', guard, async (request) => {
    const params = bodyOf(request);
    onlyKnown(params, ['email', 'name', 'description', 'metadata', 'expand']);
    const record = account.createCustomer(
      { email: optionalString(params, 'email'), name: optionalString(params, 'name'), metadata: metadataOf(params) },
      originOf(request),
    );
    return customerObjectOf(account, record.id);
  });

  app.get<IdParams>('/v1/customers/:id', guard, async (request) => {
    const found = account.customerOrDeleted(request.params.id);
    return 'deleted' in found ? found : customerObject(found);
  });

  app.delete<IdParams>('/v1/customers/:id', guard, async (request) =>
    account.deleteCustomer(request.params.id, originOf(request)),
  );
}

function priceRoutes(app: FastifyInstance, account: StripeAccount, guard: object) {
  app.get('/v1/prices', guard, async (request) => {
    const params = queryOf(request.url);
    onlyKnown(params, ['lookup_keys', 'active', 'product', 'type', 'currency', 'limit', 'expand']);
    const lookupKeys = params.lookup_keys === undefined ? undefined : [params.lookup_keys].flat();
    const product = optionalString(params, 'product');
    const prices = account.catalogue.prices.filter(
      (spec) =>
        (lookupKeys === undefined || lookupKeys.includes(spec.lookupKey)) &&
        (product === null || spec.productId === product),
    );
    return listOf('/v1/prices', limited(prices, params).map(priceObject), prices);
  });

  app.get<IdParams>('/v1/prices/:id', guard, async (request) => {
    const spec = account.catalogue.find(request.params.id);
    if (spec === undefined) throw new StripeRefusal(resourceMissing('price', request.params.id));
    return priceObject(spec);
  });
}

function subscriptionRoutes(
  app: FastifyInstance,
  account: StripeAccount,
  guard: object,
  originOf: (request: FastifyRequest) => EventOrigin,
) {
  const render = (id: string, expand: Set<string>): Stripe.Subscription => {
    const object = account.subscriptionObject(account.subscription(id));
    const record = account.subscription(id);
    if (expand.has('schedule') && record.scheduleId !== null) {
      object.schedule = subscriptionScheduleObject(account.schedule(record.scheduleId), account.catalogue);
    }
    if (expand.has('latest_invoice') && record.latestInvoiceId !== null) {
      object.latest_invoice = account.invoiceObject(account.invoice(record.latestInvoiceId));
    }
    if (expand.has('customer')) object.customer = customerObjectOf(account, record.customerId);
    return object;
  };
  const expandable = ['schedule', 'latest_invoice', 'customer'];

  app.get('/v1/subscriptions', guard, async (request) => {
    const params = queryOf(request.url);
    onlyKnown(params, ['customer', 'status', 'price', 'limit', 'expand']);
    const records = account.listSubscriptions({
      customerId: optionalString(params, 'customer') ?? undefined,
      status: optionalString(params, 'status') ?? undefined,
    });
    const expand = new Set(
      [
        ...expandOf(
          params,
          expandable.map((field) => `data.${field}`),
        ),
      ].map((field) => field.slice(5)),
    );
    return listOf(
      '/v1/subscriptions',
      limited(records, params).map((record) => render(record.id, expand)),
      records,
    );
  });

  app.get<IdParams>('/v1/subscriptions/:id', guard, async (request) =>
    render(request.params.id, expandOf(queryOf(request.url), expandable)),
  );

  app.post<IdParams>('/v1/subscriptions/:id', guard, async (request) => {
    const params = bodyOf(request);
    onlyKnown(params, ['cancel_at_period_end', 'items', 'proration_behavior', 'expand']);
    const expand = expandOf(params, expandable);
    const { id } = request.params;
    const record = account.updatableSubscription(id);
    const prorationBehavior = optionalString(params, 'proration_behavior');
    if (prorationBehavior !== null && !['create_prorations', 'none', 'always_invoice'].includes(prorationBehavior)) {
      throw new StripeRefusal(
        parameterInvalid('proration_behavior', `Invalid proration_behavior: ${prorationBehavior}`),
      );
    }
    const newPrice = readItemsPrice(params, record.itemId, account);
    if (newPrice !== null && newPrice !== record.priceId) account.changePrice(id, newPrice, originOf(request));
    const cancel = optionalBoolean(params, 'cancel_at_period_end');
    if (cancel !== null && cancel !== record.cancelAtPeriodEnd)
      account.setCancelAtPeriodEnd(id, cancel, originOf(request));
    return render(id, expand);
  });

  app.delete<IdParams>('/v1/subscriptions/:id', guard, async (request) => {
    account.cancelNow(request.params.id, originOf(request));
    return render(request.params.id, new Set());
  });

  app.get<IdParams>('/v1/subscription_schedules/:id', guard, async (request) =>
    subscriptionScheduleObject(account.schedule(request.params.id), account.catalogue),
  );
}

function readCheckoutSession(params: Params, account: StripeAccount): NewCheckoutSession {
  onlyKnown(params, [
    'mode',
    'customer',
    'customer_email',
    'line_items',
    'success_url',
    'cancel_url',
    'client_reference_id',
    'metadata',
    'subscription_data',
    'automatic_tax',
    'customer_update',
    'expand',
  ]);
  const mode = requiredString(params, 'mode');
  if (mode !== 'subscription') {
    throw new StripeRefusal(
      parameterInvalid('mode', `The stand-in sells subscriptions only: mode must be subscription, not ${mode}.`),
    );
  }
  const customerId = optionalString(params, 'customer');
  if (customerId !== null && !account.hasCustomer(customerId)) {
    throw new StripeRefusal({ ...resourceMissing('customer', customerId, 'customer'), status: 400 });
  }
  const lineItems = params.line_items;
  if (lineItems === undefined)
    throw new StripeRefusal(invalidRequest('Missing required param: line_items.', 'line_items', 'parameter_missing'));
  if (!Array.isArray(lineItems) || lineItems.length !== 1) {
    throw new StripeRefusal(
      parameterInvalid('line_items', 'A subscription checkout here takes exactly one line item.'),
    );
  }
  const item = lineItems[0] as Params;
  onlyKnown(item, ['price', 'quantity'], 'line_items[0][');
  const priceId = requiredString(item, 'price', 'line_items[0][price]');
  if (account.catalogue.find(priceId) === undefined) {
    throw new StripeRefusal({ ...resourceMissing('price', priceId, 'line_items[0][price]'), status: 400 });
  }
  const subscriptionData = optionalObject(params, 'subscription_data');
  onlyKnown(subscriptionData, ['trial_period_days', 'metadata'], 'subscription_data[');
  const automaticTax = optionalObject(params, 'automatic_tax');
  onlyKnown(automaticTax, ['enabled'], 'automatic_tax[');
  // Stripe Tax asks Checkout to save the address it collects on the customer: `auto` or `never` per field.
  const customerUpdate = optionalObject(params, 'customer_update');
  onlyKnown(customerUpdate, ['address', 'name', 'shipping'], 'customer_update[');
  for (const field of ['address', 'name', 'shipping'] as const) {
    const value = optionalString(customerUpdate, field, `customer_update[${field}]`);
    if (value !== null && value !== 'auto' && value !== 'never')
      throw new StripeRefusal(
        parameterInvalid(
          `customer_update[${field}]`,
          `Invalid customer_update[${field}]: must be one of auto or never`,
        ),
      );
  }
  return {
    customerId,
    customerEmail: optionalString(params, 'customer_email'),
    priceId,
    quantity: optionalInteger(item, 'quantity', 'line_items[0][quantity]', 1) ?? 1,
    successUrl: optionalString(params, 'success_url'),
    cancelUrl: optionalString(params, 'cancel_url'),
    clientReferenceId: optionalString(params, 'client_reference_id'),
    metadata: metadataOf(params),
    trialPeriodDays: optionalInteger(subscriptionData, 'trial_period_days', 'subscription_data[trial_period_days]', 1),
    subscriptionMetadata: metadataOf(subscriptionData, 'metadata', 'subscription_data[metadata]'),
    automaticTax: optionalBoolean(automaticTax, 'enabled', 'automatic_tax[enabled]') ?? false,
  };
}

/** `items[0][id]=si_…&items[0][price]=price_…`: the one item's new price, if any. */
function readItemsPrice(params: Params, itemId: string, account: StripeAccount): string | null {
  if (params.items === undefined) return null;
  if (!Array.isArray(params.items) || params.items.length !== 1) {
    throw new StripeRefusal(parameterInvalid('items', "The stand-in's subscriptions have exactly one item."));
  }
  const item = params.items[0] as Params;
  onlyKnown(item, ['id', 'price', 'quantity'], 'items[0][');
  const id = optionalString(item, 'id', 'items[0][id]');
  if (id !== null && id !== itemId)
    throw new StripeRefusal({ ...resourceMissing('subscription_item', id, 'items[0][id]'), status: 400 });
  const priceId = optionalString(item, 'price', 'items[0][price]');
  if (priceId !== null && account.catalogue.find(priceId) === undefined) {
    throw new StripeRefusal({ ...resourceMissing('price', priceId, 'items[0][price]'), status: 400 });
  }
  return priceId;
}

function customerObjectOf(account: StripeAccount, id: string): Stripe.Customer {
  return customerObject(account.customer(id));
}

function bodyOf(request: FastifyRequest): Params {
  return (request.body ?? {}) as Params;
}

/** Stripe's lists: 10 items unless `limit` says otherwise (1 to 100). */
function limited<T>(items: readonly T[], params: Params): T[] {
  const limit = optionalInteger(params, 'limit', 'limit', 1) ?? 10;
  if (limit > 100) throw new StripeRefusal(parameterInvalid('limit', 'This value must be less than or equal to 100.'));
  return items.slice(0, limit);
}

function listOf<T>(url: string, data: T[], all: readonly unknown[]): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: all.length > data.length, url };
}

/** Why the request's key is refused: none sent, or not the accepted one. */
function authenticationProblem(authorization: string | undefined, secretKey: string | undefined) {
  const key = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (key === undefined) return missingApiKey();
  const accepted = secretKey === undefined ? key.startsWith('sk_test_') : key === secretKey;
  return accepted ? undefined : invalidApiKey(key);
}
