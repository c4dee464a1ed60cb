import type { FastifyPluginAsync } from 'fastify';
import { supportRequestBodySchema, supportSubmittedSchema } from '@mediagen/shared';
import { ServiceError } from '../http/errors';
import { hourlyFormLimit } from '../http/hourly-form-limit';
import { commonErrorResponses, withSharedSchemas } from '../http/schemas';

/** The support form's own counters in Redis, apart from /api's per-minute ones. */
export const supportRateLimitNamespace = (prefix: string) => `${prefix}:support-rate-limit:`;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a request without a bearer token (a refused token is still refused). */
    signedOutAllowed?: boolean;
  }
}

/**
 * POST /api/support: the support form (issue 37), signed in or not. It sits under /api, so the per-minute
 * limit counts it like any call; on top of that a request is counted per client address and, signed in,
 * per account, SUPPORT_REQUESTS_PER_HOUR each, so neither a visitor nor an account can flood operators.
 * Signed in, the account is attached and its email is the default reply address.
 */
export const supportRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  const limitPerHour = hourlyFormLimit(
    app.redis,
    supportRateLimitNamespace(config.queuePrefix),
    config.limits.supportRequestsPerHour,
    'Too many support requests from here. Please try again later.',
  );

  withSharedSchemas(app).post(
    '/support',
    {
      config: { signedOutAllowed: true },
      preHandler: limitPerHour,
      schema: {
        summary: 'Ask for support',
        description: 'Signed in or not; signed in, the account is attached.',
        tags: ['Support'],
        body: supportRequestBodySchema,
        response: { 201: supportSubmittedSchema, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const { topic, message } = request.body;
      const email = request.body.email ?? request.user?.email ?? null;
      if (email === null) throw new ServiceError(400, 'INVALID_REQUEST', 'Invalid request: email is required.');
      const created = await app.support.requests.create({ uid: request.user?.uid ?? null, email, topic, message });
      request.log.info({ supportRequest: created.id, topic }, 'support request received');
      return reply.status(201).send({ id: created.id });
    },
  );
};
