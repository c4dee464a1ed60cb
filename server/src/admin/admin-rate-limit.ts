import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestCounter } from '../http/batched-rate-limit-store';
import { notReady, ServiceError } from '../http/errors';

const ONE_MINUTE_MS = 60_000;

/** The admin pages' counters in Redis, apart from /api's; a user's own is `<namespace>uid:<uid>`. */
export const adminRateLimitNamespace = (prefix: string) => `${prefix}:admin-rate-limit:`;

interface Options {
  count: RequestCounter;
  /** Requests per minute per caller (RATE_LIMIT_PER_MINUTE). */
  max: number;
  /** Who is asking (`uid:…`, or `ip:…` before sign-in), found without reading any account. */
  caller(request: FastifyRequest): Promise<string>;
}

/**
 * An onRequest hook for everything under /admin. Every admin request asks the identity service about the
 * caller's account, so the caller is counted first and a request past the limit reaches no such read. It
 * answers itself rather than throwing: Bull Board installs its own error handler in its scope.
 */
export function adminRateLimit({ count, max, caller }: Options) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const counted = await count(await caller(request), ONE_MINUTE_MS).catch(() => null);
    // Redis away: nothing can be counted, so nothing is let through to the identity service.
    const refusal =
      counted === null ? notReady() : counted.current > max ? new ServiceError(429, 'RATE_LIMITED') : null;
    if (refusal === null) return undefined;
    if (counted !== null) reply.header('retry-after', Math.ceil(counted.ttl / 1000));
    return reply.status(refusal.statusCode).header('cache-control', 'no-store').send(refusal.toBody());
  };
}
