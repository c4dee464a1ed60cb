import type { Redis } from 'ioredis';
import { cancelKey, cancellationChannel } from './redis-keys';

const CANCEL_FLAG_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * A canceled generation is marked in Redis rather than removed from its queue: any server instance can
 * set the mark, and the worker holding (or later taking) the job sees it and stops without calling the
 * provider again. The first cancel is also published on `cancellationChannel(prefix)`, so a worker in
 * the middle of a provider call aborts it at once instead of waiting for the call to end.
 */
export class CancellationRegistry {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Returns false when the generation was already canceled. */
  async cancel(generationId: string): Promise<boolean> {
    const set = await this.redis.set(
      cancelKey(this.prefix, generationId),
      Date.now(),
      'EX',
      CANCEL_FLAG_TTL_SECONDS,
      'NX',
    );
    if (set !== 'OK') return false;
    // The flag is what counts; a lost message only means the worker stops at its next check instead.
    await this.redis.publish(cancellationChannel(this.prefix), generationId).catch(() => undefined);
    return true;
  }

  async isCanceled(generationId: string): Promise<boolean> {
    return (await this.redis.exists(cancelKey(this.prefix, generationId))) === 1;
  }

  async canceledAmong(generationIds: readonly string[]): Promise<Set<string>> {
    if (generationIds.length === 0) return new Set();
    const flags = await this.redis.mget(generationIds.map((id) => cancelKey(this.prefix, id)));
    return new Set(generationIds.filter((_, index) => flags[index] !== null));
  }
}
