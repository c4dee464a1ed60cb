import fp from 'fastify-plugin';
import { JobTimings } from '../metrics/job-timings';
import { ServerMetrics } from '../metrics/server-metrics';

/**
 * The Prometheus registry of this app instance, the job timing observer (wait and run times, and the
 * recent run times the queue ETA is computed from) and a count of answered HTTP requests by route.
 */
export const metricsPlugin = fp(
  async (app) => {
    const queues = app.generationQueues;
    const metrics = new ServerMetrics({
      jobCounts: (kind) => queues.jobCounts(kind),
      isPaused: (kind) => queues.isPaused(kind),
    });
    app.decorate('metrics', metrics);

    const timings = new JobTimings({
      source: queues,
      getJob: (kind, id) => queues.getJob(kind, id),
      metrics,
      log: app.log,
    });
    timings.start();
    app.decorate('jobTimings', timings);
    app.addHook('preClose', () => timings.stop());

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
    jobTimings: JobTimings;
  }
}
