import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { billingRedirectSchema, billingStateSchema, checkoutBodySchema, errorBodySchema } from '@mediagen/shared';
import { appOrigin } from '../http/app-origin';
import { commonErrorResponses, withSharedSchemas } from '../http/schemas';
import { currentUser } from '../plugins/auth';
import { publicOrigin } from '../plugins/services';

/**
 * /api/billing (issue 38): the signed-in user's plan as billing sees it, Stripe Checkout for a plan and
 * period (the portal instead when a subscription is already paid for), and the customer portal.
 */
export const billingRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);
  const returnOrigin = (request: FastifyRequest) =>
    appOrigin(request.headers.origin, app.config.corsOrigins, publicOrigin(app));
  routes.get(
    '/billing',
    {
      schema: {
        summary: 'Your plan and subscription',
        tags: ['Billing'],
        response: { 200: billingStateSchema, ...commonErrorResponses },
      },
    },
    (request) => app.billing.state(currentUser(request)),
  );

  routes.post(
    '/billing/checkout',
    {
      schema: {
        summary: 'Start a checkout for a plan',
        description: 'Answers the checkout page to send the user to.',
        tags: ['Billing'],
        body: checkoutBodySchema,
        response: { 200: billingRedirectSchema, ...commonErrorResponses },
      },
    },
    (request) => app.billing.checkout(currentUser(request), request.body, returnOrigin(request)),
  );

  routes.post(
    '/billing/portal',
    {
      schema: {
        summary: 'Open the billing portal',
        tags: ['Billing'],
        response: { 200: billingRedirectSchema, 409: errorBodySchema, ...commonErrorResponses },
      },
    },
    (request) => app.billing.portal(currentUser(request), returnOrigin(request)),
  );
};
