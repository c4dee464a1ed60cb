import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '@mediagen/shared';
import { withSharedSchemas } from '../http/schemas';

/**
 * POST /api/billing/webhook: Stripe's event deliveries. The signature covers the exact bytes sent, so
 * this route alone reads its body raw (a parser scoped to this plugin); it needs no sign-in, and Stripe's
 * bursts of retries are not counted against /api's per-caller limit. 200 once applied (or already
 * applied), 400 refused, 5xx when Stripe could not be read: Stripe delivers again later.
 */
export const billingWebhookRoutes: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  withSharedSchemas(app).post(
    '/billing/webhook',
    {
      schema: {
        response: { 200: z.object({ received: z.literal(true) }), 400: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await app.billing.receive(body, request.headers['stripe-signature'] as string | undefined);
      return { received: true as const };
    },
  );
};
