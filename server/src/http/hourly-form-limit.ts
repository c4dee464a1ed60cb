import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { batchedRequestCounter } from './batched-rate-limit-store';
import { ServiceError } from './errors';

const ONE_HOUR_MS = 60 * 60_000;

/**
 * A preHandler for a form people write to us through (support, Contact Sales), signed in or not: on top of
 * /api's per-minute limit, at most `maxPerHour` per client address and, signed in, per account, counted in
 * Redis under `namespace`, so neither a visitor nor an account can flood operators. `refusal` says it.
 */
export function hourlyFormLimit(redis: Redis, namespace: string, maxPerHour: number, refusal: string) {
  const count = batchedRequestCounter(redis, namespace);
  return async function limitPerHour(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const callers = [`ip:${request.ip}`, ...(request.user === null ? [] : [`uid:${request.user.uid}`])];
    const counted = await Promise.all(callers.map((caller) => count(caller, ONE_HOUR_MS)));
    const over = counted.filter((result) => result.current > maxPerHour);
    if (over.length === 0) return;
    reply.header('retry-after', Math.ceil(Math.max(...over.map((result) => result.ttl)) / 1000));
    throw new ServiceError(429, 'RATE_LIMITED', refusal);
  };
}
