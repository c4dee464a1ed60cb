import type { FastifyPluginAsync } from 'fastify';
import { salesRequestBodySchema, supportSubmittedSchema } from '@mediagen/shared';
import { ServiceError } from '../http/errors';
import { hourlyFormLimit } from '../http/hourly-form-limit';
import { commonErrorResponses, withSharedSchemas } from '../http/schemas';

/** Contact Sales' own counters in Redis, apart from /api's per-minute ones and the support form's. */
export const salesRateLimitNamespace = (prefix: string) => `${prefix}:sales-rate-limit:`;

/**
 * POST /api/sales: Enterprise's Contact Sales (issue 38), signed in or not, as the support form is: on
 * top of /api's per-minute limit, SALES_REQUESTS_PER_HOUR per client address and, signed in, per
 * account. Signed in, the account is attached and its email is the default reply address.
 */
export const salesRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  const limitPerHour = hourlyFormLimit(
    app.redis,
    salesRateLimitNamespace(config.queuePrefix),
    config.limits.salesRequestsPerHour,
    'Too many requests to sales from here. Please try again later.',
  );

  withSharedSchemas(app).post(
    '/sales',
    {
      config: { signedOutAllowed: true },
      preHandler: limitPerHour,
      schema: {
        summary: 'Contact Sales',
        description: 'Signed in or not.',
        tags: ['Support'],
        body: salesRequestBodySchema,
        response: { 201: supportSubmittedSchema, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const { company, volume, message } = request.body;
      const email = request.body.email ?? request.user?.email ?? null;
      if (email === null) throw new ServiceError(400, 'INVALID_REQUEST', 'Invalid request: email is required.');
      const created = await app.sales.create({ uid: request.user?.uid ?? null, email, company, volume, message });
      request.log.info({ salesRequest: created.id, volume }, 'sales request received');
      return reply.status(201).send({ id: created.id });
    },
  );
};
