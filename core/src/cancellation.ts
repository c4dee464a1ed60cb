import type { Redis } from 'ioredis';
import { cancelKey } from './redis-keys';

const CANCEL_FLAG_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * A canceled generation is marked in Redis rather than removed from its queue: any server instance can
 * set the mark, and the worker holding (or later taking) the job sees it and stops without calling the
 * provider again.
 */
export class CancellationRegistry {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Returns false when the generation was already canceled. */
  async cancel(generationId: string): Promise<boolean> {
    const set = await this.redis.set(cancelKey(this.prefix, generationId), Date.now(), 'EX', CANCEL_FLAG_TTL_SECONDS, 'NX');
    return set === 'OK';
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
