import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { apiKeyRefusal } from '../auth/api-key-access';
import { batchedRateLimitStore } from '../http/batched-rate-limit-store';
import { currentRateLimitFields } from '../http/rate-limit-fields';
import { notReady, ServiceError } from '../http/errors';
import { generationRoutes } from './generations';
import { meRoutes } from './me';
import { sessionOpenRoutes } from './session';
import { speechRoutes } from './speech';
import { supportRoutes } from './support';
import { billingRoutes } from './billing';
import { salesRoutes } from './sales';
import { webhookRoutes } from './webhooks';
import { bearerToken } from '../plugins/auth';
import { apiKeyRoutes } from './api-keys';

const ONE_MINUTE_MS = 60_000;

/**
 * The rate limiter's Redis namespace; a user's own counter is `<namespace>uid:<uid>`, an API key's
 * `<namespace>key:<id>` (each key its own limit, apart from its owner's web session), a caller not
 * known (no token, or a bad one: a bad API key counts here too) `<namespace>ip:<address>`.
 */
export const rateLimitNamespace = (prefix: string) => `${prefix}:rate-limit:`;

/**
 * Everything under /api needs a valid Firebase ID token or API key, but the support form (signed in or
 * not). The caller is identified first so the rate limit (shared by every server through Redis) counts
 * per user, per key, or per IP before sign-in; the 401 (or the 503 while the identity service cannot be
 * asked) comes after it, then a key's 403 when the route is not for keys or not in its scopes, still
 * before the body is read. Every answer carries the limit as RateLimit-Policy and RateLimit.
 */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  app.addHook('onRequest', app.identify);
  await app.register(rateLimit, {
    max: config.limits.rateLimitPerMinute,
    timeWindow: ONE_MINUTE_MS,
    store: batchedRateLimitStore(app.redis, rateLimitNamespace(config.queuePrefix)),
    keyGenerator: (request) => {
      if (request.user === null) return `ip:${request.ip}`;
      return request.user.apiKey === undefined ? `uid:${request.user.uid}` : `key:${request.user.apiKey.id}`;
    },
    errorResponseBuilder: () => new ServiceError(429, 'RATE_LIMITED'),
    enableDraftSpec: true,
  });
  app.addHook('onSend', currentRateLimitFields(ONE_MINUTE_MS / 1000));
  app.addHook('preParsing', async (request) => {
    if (request.user !== null) return;
    // A route open to visitors (the support form) takes a request that carries no token; one whose token
    // was refused is told so, as anywhere, so a signed-in client signs in again rather than send anonymously.
    if (request.routeOptions.config.signedOutAllowed === true && bearerToken(request) === undefined) return;
    // 401 tells a client its sign-in is over; an identity service briefly away says no such thing.
    throw request.identityUnavailable ? notReady() : new ServiceError(401, 'UNAUTHENTICATED');
  });
  app.addHook('preParsing', async (request) => {
    const key = request.user?.apiKey;
    if (key === undefined) return;
    const refusal = apiKeyRefusal(key, request.method, request.routeOptions.url);
    if (refusal !== null) throw refusal;
  });
  await app.register(generationRoutes);
  await app.register(meRoutes);
  await app.register(sessionOpenRoutes);
  await app.register(speechRoutes);
  await app.register(supportRoutes);
  await app.register(billingRoutes);
  await app.register(salesRoutes);
  await app.register(apiKeyRoutes);
  await app.register(webhookRoutes);
};
