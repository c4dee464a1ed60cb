import type { FastifyInstance } from 'fastify';
import { tracingStarted } from '@mediagen/core';

/** Probes and scrapes: every few seconds from every load balancer and Prometheus, about no generation. */
const UNTRACED_PATHS = ['/healthz', '/readyz', '/metrics'];

/**
 * One span per request (@fastify/otel), continuing a trace the caller sent (`traceparent`). Only the route
 * is recorded, never the URL: an artifact's URL is signed in its query, and paths hold ids. Nothing is
 * loaded or registered while tracing is off.
 */
export async function registerRequestTracing(app: FastifyInstance): Promise<void> {
  if (!tracingStarted()) return;
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const instrumentation = new FastifyOtelInstrumentation({
    registerOnInitialization: false,
    // A span per hook would make a dozen per request for what the request's own span already times.
    instrumentHooks: false,
    instrumentHandler: false,
    // An exception's message may quote a request (a refused prompt's word): the response's status says enough.
    recordExceptions: false,
    ignorePaths: ({ url }) => UNTRACED_PATHS.some((path) => url === path || url.startsWith(`${path}?`)),
    requestHook: (span, request) => {
      const route = request.routeOptions.url ?? 'unmatched';
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('url.path', route);
    },
  });
  await app.register(instrumentation.plugin());
}
