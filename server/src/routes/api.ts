import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { batchedRateLimitStore } from '../http/batched-rate-limit-store';
import { notReady, ServiceError } from '../http/errors';
import { generationRoutes } from './generations';
import { meRoutes } from './me';
import { sessionOpenRoutes } from './session';
import { speechRoutes } from './speech';

const ONE_MINUTE_MS = 60_000;

/** The rate limiter's Redis namespace; a user's own counter is `<namespace>uid:<uid>`. */
export const rateLimitNamespace = (prefix: string) => `${prefix}:rate-limit:`;

/**
 * Everything under /api needs a valid Firebase ID token. The caller is identified first so the rate
 * limit (shared by every server through Redis) counts per user, or per IP before sign-in; the 401 (or
 * the 503 while the identity service cannot be asked) comes after it, still before the body is read.
 */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  app.addHook('onRequest', app.identify);
  await app.register(rateLimit, {
    max: config.limits.rateLimitPerMinute,
    timeWindow: ONE_MINUTE_MS,
    store: batchedRateLimitStore(app.redis, rateLimitNamespace(config.queuePrefix)),
    keyGenerator: (request) => (request.user === null ? `ip:${request.ip}` : `uid:${request.user.uid}`),
    errorResponseBuilder: () => new ServiceError(429, 'RATE_LIMITED'),
  });
  app.addHook('preParsing', async (request) => {
    if (request.user !== null) return;
    // 401 tells a client its sign-in is over; an identity service briefly away says no such thing.
    throw request.identityUnavailable ? notReady() : new ServiceError(401, 'UNAUTHENTICATED');
  });
  await app.register(generationRoutes);
  await app.register(meRoutes);
  await app.register(sessionOpenRoutes);
  await app.register(speechRoutes);
};
