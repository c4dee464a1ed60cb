import type { Redis } from 'ioredis';
import { kindOfGenerationId, queueName } from './generation-queues';
import type { QuotaLedger } from './quota-ledger';

/** Long enough for the API to finish enqueueing a job it has just charged for. */
const MIN_CHARGE_AGE_MS = 60_000;
const CHARGE_KEY_PATTERN = /^(?<prefix>.+):\{(?<uid>[^}]+)\}:charge:(?<id>[a-z]+_[a-f0-9]+)$/;

/**
 * Gives back tokens charged for jobs that never reached the queue or left it without running: Redis lost
 * between the charge and the enqueue (the API's own refund fails with it), or a waiting job removed by an
 * operator. A charge lives until its job completes (settled) or fails or is canceled (refunded), so a
 * charge older than a minute whose job is gone is an orphan. Refunds are idempotent: sweeping twice, or
 * from several processes, gives each token back once.
 */
export async function refundOrphanedCharges(redis: Redis, ledger: QuotaLedger, prefix: string): Promise<number> {
  let refunded = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:{*}:charge:*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const match = CHARGE_KEY_PATTERN.exec(key)?.groups;
      const kind = match === undefined ? null : kindOfGenerationId(match.id!);
      if (match === undefined || kind === null || match.prefix !== prefix) continue;
      const [[, remainingMs], [, jobExists]] = (await redis
        .multi()
        .pttl(key)
        .exists(`${prefix}:${queueName(kind)}:${match.id}`)
        .exec()) as [[Error | null, number], [Error | null, number]];
      const ageMs = ledger.chargeTtlMs - remainingMs;
      if (jobExists === 1 || remainingMs < 0 || ageMs < MIN_CHARGE_AGE_MS) continue;
      if (await ledger.refund(match.uid!, kind, match.id!)) refunded += 1;
    }
  } while (cursor !== '0');
  return refunded;
}
