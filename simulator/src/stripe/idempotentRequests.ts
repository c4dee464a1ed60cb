import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { idempotencyKeyReused } from './stripeErrors';

interface SavedAnswer {
  /** The endpoint and parameters the key was first used with. */
  fingerprint: string;
  status: number;
  payload: string;
}

/** Stripe keeps an idempotency key's result for at least 24 hours. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * `Idempotency-Key` on POST, as Stripe honours it (https://docs.stripe.com/api/idempotent_requests): the
 * same key gets the first answer again (marked `Idempotent-Replayed: true`); the same key with another
 * endpoint or other parameters is refused with an idempotency_error. Only successes are saved: a request
 * that failed validation may be retried with its key.
 */
export function honourIdempotencyKeys(app: FastifyInstance): void {
  const saved = new LRUCache<string, SavedAnswer>({ max: 10_000, ttl: KEY_LIFETIME_MS });
  const firstUses = new WeakMap<FastifyRequest, { cacheKey: string; fingerprint: string }>();

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || typeof key !== 'string' || key === '') return;
    // Keys belong to an account: the same key from another API key is another request.
    const cacheKey = `${request.headers.authorization ?? ''}\n${key}`;
    const fingerprint = JSON.stringify([request.url, request.body ?? {}]);
    const answer = saved.get(cacheKey);
    if (answer === undefined) {
      firstUses.set(request, { cacheKey, fingerprint });
      return;
    }
    if (answer.fingerprint !== fingerprint) {
      const { status, body } = idempotencyKeyReused(key);
      return reply.code(status).send(body);
    }
    return reply
      .code(answer.status)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(answer.payload);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const firstUse = firstUses.get(request);
    if (firstUse !== undefined && reply.statusCode < 300 && typeof payload === 'string') {
      saved.set(firstUse.cacheKey, { fingerprint: firstUse.fingerprint, status: reply.statusCode, payload });
    }
    return payload;
  });
}
