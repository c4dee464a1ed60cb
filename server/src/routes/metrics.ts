import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { ServiceError } from '../http/errors';
import { bearerToken } from '../plugins/auth';

/** /metrics: Prometheus text format; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`. */
export const metricsRoutes: FastifyPluginAsync = async (app) => {
  const expected = app.config.metricsToken === null ? null : Buffer.from(app.config.metricsToken);
  app.get('/metrics', async (request, reply) => {
    if (expected !== null) {
      const given = Buffer.from(bearerToken(request) ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ServiceError(401, 'UNAUTHENTICATED', 'A valid metrics token is required.');
      }
    }
    const body = await app.metrics.registry.metrics();
    return reply.type(app.metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
};
