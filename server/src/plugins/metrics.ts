import fp from 'fastify-plugin';
import { ServerMetrics } from '../metrics/server-metrics';

/**
 * The Prometheus registry of this app instance and a count of answered HTTP requests by route. Job wait
 * and run times are the workers' series: each job is observed once, by the worker that ran it.
 */
export const metricsPlugin = fp(
  async (app) => {
    const { inspector } = app;
    const metrics = new ServerMetrics({
      jobCounts: (kind) => inspector.jobCounts(kind),
      isPaused: (kind) => inspector.isPaused(kind),
    });
    app.decorate('metrics', metrics);

    app.addHook('onResponse', async (request, reply) => {
      // The route pattern, never the raw URL: ids and signatures would make a series per request.
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    });
  },
  { name: 'metrics', dependencies: ['infrastructure'], fastify: '5.x' },
);

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ServerMetrics;
  }
}
