import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { describeRequestError } from '../requestError';
import { checkoutPage, type CheckoutView } from './checkoutPage';
import { html, page } from './hostedPageHtml';
import { portalPage, PORTAL_NOTICES, type PortalNotice } from './portalPage';
import type { StripeAccount } from './stripeAccount';
import { CHECKOUT_PAGE_PATH, PORTAL_PAGE_PATH } from './stripeApiRoutes';
import { resourceMissing, StripeRefusal } from './stripeErrors';
import { parseParams } from './stripeParams';

type IdParams = { Params: { id: string } };

/**
 * The pages Stripe hosts, standing in for checkout.stripe.com and billing.stripe.com: a checkout page with
 * Pay, Decline and 3-D Secure outcomes, and the customer portal.
 */
export function hostedPageRoutes(account: StripeAccount): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, parseParams(body as string));
    });
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof StripeRefusal) {
        const status = error.answer.status === 404 ? 404 : 409;
        return sendPage(reply.code(status), page('Not available', html`<h1>${error.message}</h1>`));
      }
      const { statusCode, message } = describeRequestError(error);
      return sendPage(reply.code(statusCode), page('Error', html`<h1>${message}</h1>`));
    });

    const showCheckout = (id: string, view: CheckoutView, reply: FastifyReply) => {
      const session = account.checkoutSession(id);
      const path = `${CHECKOUT_PAGE_PATH}/${session.id}`;
      return sendPage(reply, checkoutPage(session, account.catalogue.get(session.priceId), view, path));
    };

    app.get<IdParams>(`${CHECKOUT_PAGE_PATH}/:id`, async (request, reply) =>
      showCheckout(request.params.id, 'offer', reply),
    );

    const pay = async (id: string, reply: FastifyReply) => {
      const session = account.checkoutSession(id);
      if (session.status !== 'open') return showCheckout(id, 'offer', reply);
      account.completeCheckoutSession(id);
      if (session.successUrl === null)
        return sendPage(reply, page('Thank you', html`<h1>Thanks for your payment.</h1>`));
      // Stripe fills in the session's id where the success URL asks for it.
      return reply.redirect(session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', session.id), 303);
    };
    app.post<IdParams>(`${CHECKOUT_PAGE_PATH}/:id/pay`, async (request, reply) => pay(request.params.id, reply));
    app.post<IdParams>(`${CHECKOUT_PAGE_PATH}/:id/three-d-secure/complete`, async (request, reply) =>
      pay(request.params.id, reply),
    );
    // A declined card creates nothing: the session stays open for another try. Like Stripe's hosted page,
    // the page says so in its text, not with an HTTP error a browser would log as a failed load.
    app.post<IdParams>(`${CHECKOUT_PAGE_PATH}/:id/decline`, async (request, reply) =>
      showCheckout(request.params.id, 'declined', reply),
    );
    app.post<IdParams>(`${CHECKOUT_PAGE_PATH}/:id/three-d-secure/fail`, async (request, reply) =>
      showCheckout(request.params.id, 'declined', reply),
    );
    app.post<IdParams>(`${CHECKOUT_PAGE_PATH}/:id/three-d-secure`, async (request, reply) =>
      showCheckout(request.params.id, 'three-d-secure', reply),
    );

    app.get<IdParams & { Querystring: { notice?: string } }>(`${PORTAL_PAGE_PATH}/:id`, async (request, reply) => {
      const session = account.portalSession(request.params.id);
      const subscription = account.currentSubscriptionOf(session.customerId);
      const notice = request.query.notice;
      return sendPage(
        reply,
        portalPage({
          session,
          subscription,
          schedule: subscription?.scheduleId == null ? undefined : account.schedule(subscription.scheduleId),
          invoices: account.listInvoices({ customerId: session.customerId }),
          catalogue: account.catalogue,
          notice: notice !== undefined && notice in PORTAL_NOTICES ? (notice as PortalNotice) : undefined,
          path: `${PORTAL_PAGE_PATH}/${session.id}`,
        }),
      );
    });

    /** Each portal action changes the customer's current subscription, then shows the portal again. */
    const portalAction = (
      action: string,
      apply: (subscriptionId: string, form: Record<string, unknown>) => PortalNotice,
    ) =>
      app.post<IdParams>(`${PORTAL_PAGE_PATH}/:id/${action}`, async (request, reply) => {
        const session = account.portalSession(request.params.id);
        const subscription = account.currentSubscriptionOf(session.customerId);
        if (subscription === undefined) {
          throw new StripeRefusal({
            status: 409,
            body: { error: { type: 'invalid_request_error', message: 'You have no active subscription.' } },
          });
        }
        const notice = apply(subscription.id, (request.body ?? {}) as Record<string, unknown>);
        return reply.redirect(`${PORTAL_PAGE_PATH}/${session.id}?notice=${notice}`, 303);
      });

    portalAction('switch', (id, form) => {
      const priceId = typeof form.price === 'string' ? form.price : '';
      if (account.catalogue.find(priceId) === undefined) throw new StripeRefusal(resourceMissing('price', priceId));
      const before = account.subscription(id).priceId;
      const after = account.switchPlanFromPortal(id, priceId);
      return after.priceId === before && after.scheduleId !== null ? 'scheduled' : 'switched';
    });
    portalAction('update-card', (id) => {
      account.replaceCard(id);
      return 'card';
    });
    portalAction('cancel', (id) => {
      account.setCancelAtPeriodEnd(id, true, null);
      return 'canceled';
    });
    portalAction('renew', (id) => {
      account.setCancelAtPeriodEnd(id, false, null);
      return 'renewed';
    });
  };
}

function sendPage(reply: FastifyReply, body: string) {
  return reply.type('text/html; charset=utf-8').send(body);
}
