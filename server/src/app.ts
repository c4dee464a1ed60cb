import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import helmet from 'helmet';
import { speechModelNotice } from '@mediagen/shared';
import type { IdentityVerifier } from './auth/identity-verifier';
import type { ServerConfig } from './config';
import { trustFunction } from './http/client-address';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandlers } from './http/errors';
import { accountsPlugin } from './plugins/accounts';
import { apiDocsPlugin } from './plugins/api-docs';
import { authPlugin } from './plugins/auth';
import { registerRequestTracing } from './plugins/request-tracing';
import { billingPlugin } from './plugins/billing';
import { infrastructurePlugin } from './plugins/infrastructure';
import { metricsPlugin } from './plugins/metrics';
import { servicesPlugin } from './plugins/services';
import { socketPlugin } from './plugins/socket';
import './plugins/types';
import { adminRoutes } from './routes/admin';
import { apiRoutes } from './routes/api';
import { sessionCloseRoutes } from './routes/session';
import { artifactRoutes } from './routes/artifacts';
import { billingWebhookRoutes } from './routes/billing-webhook';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';

export interface AppDeps {
  /** Fastify's logger option; defaults to pino at `config.logLevel`. */
  logger?: FastifyServerOptions['logger'];
  /** Replaces the Firebase verifier (the real one is used unless a test needs otherwise). */
  identity?: IdentityVerifier;
  /** Time source for quotas, timestamps and link expiry. */
  clock?: () => number;
  /** Sees every route as it is added (the published description's coverage test). */
  onRoute?: (route: RouteOptions) => void;
}

/** The spec's requests are small JSON bodies; anything larger is refused with 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The application as a Fastify instance, apart from the process that runs it (`main.ts`): tests build it
 * in-process. Plugins load external → app → routes; `app.close()` closes sockets, queues, Redis and the
 * Firebase app.
 */
export async function buildApp(config: ServerConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    // Generation ids and artifact keys are short; anything longer is not ours.
    routerOptions: { maxParamLength: 200 },
    // The same rule as the Socket.IO handshake's (TRUST_PROXY), so both count a client by one address.
    trustProxy: trustFunction(config.trustProxy),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  if (deps.onRoute !== undefined) app.addHook('onRoute', deps.onRoute);
  app.decorate('config', config);
  installErrorHandlers(app);
  // Closing waits for requests under way; a client that stops reading a download would make that forever.
  app.addHook('preClose', (done) => {
    setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs).unref();
    done();
  });
  const speechNotice = speechModelNotice(config.speechModel, Date.now());
  if (speechNotice !== null) app.log.warn(speechNotice.message);
  if (config.development) {
    app.log.warn(
      'MEDIAGEN_MODE=development: development shortcuts are on' +
        (config.artifactUrls.usingDevSecret ? ' (the fixed development ARTIFACT_URL_SECRET is in use)' : ''),
    );
  }

  try {
    // First, so every request's hooks and handler run inside its span.
    await registerRequestTracing(app);
    // Security headers: helmet's defaults. The API serves JSON, and the admin pages (Bull Board, the login
    // page) use inline scripts and styles, so no Content-Security-Policy. The middleware is built once:
    // @fastify/helmet builds it anew on every request, a few per cent of the server's CPU per submission.
    const securityHeaders = helmet({ contentSecurityPolicy: false });
    app.addHook('onRequest', (request, reply, done) =>
      securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
    );
    // External plugins.
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'DELETE'],
      // Prefer (wait=N) and Last-Event-ID (resuming a stream) for programs that run in a browser page.
      allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'prefer', 'last-event-id'],
      exposedHeaders: [
        'idempotent-replayed',
        'retry-after',
        'ratelimit',
        'ratelimit-policy',
        'preference-applied',
        'location',
      ],
    });

    // Application plugins.
    await app.register(infrastructurePlugin, { identity: deps.identity });
    await app.register(metricsPlugin);
    await app.register(authPlugin);
    await app.register(servicesPlugin, { clock: deps.clock });
    await app.register(billingPlugin);
    await app.register(socketPlugin, { clock: deps.clock });
    await app.register(accountsPlugin);

    // Routes, after the description that collects them.
    await app.register(apiDocsPlugin);
    await app.register(healthRoutes);
    await app.register(artifactRoutes);
    await app.register(metricsRoutes);
    await app.register(adminRoutes);
    await app.register(sessionCloseRoutes);
    await app.register(apiRoutes, { prefix: '/api' });
    // Stripe's deliveries: signed, not signed in, and apart from /api's per-user limits.
    await app.register(billingWebhookRoutes, { prefix: '/api' });

    await app.ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
