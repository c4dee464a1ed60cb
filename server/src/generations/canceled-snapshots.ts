import type { Redis } from 'ioredis';
import type { Generation } from '@mediagen/shared';

/** As long as a failed job is kept (see `generationJobOptions`), so history reads the same for both. */
const SNAPSHOT_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * A generation canceled while still waiting is removed from its queue so no worker takes it; its last
 * state is kept here so GET and the list still show it as canceled. Same `{uid}` hash tag as the other
 * per-user keys (core's `userKeys` could own this key).
 */
export class CanceledSnapshots {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(uid: string): string {
    return `${this.prefix}:{${uid}}:canceled`;
  }

  async put(uid: string, generation: Generation): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(uid), generation.id, JSON.stringify(generation))
      .expire(this.key(uid), SNAPSHOT_TTL_SECONDS)
      .exec();
  }

  async get(uid: string, id: string): Promise<Generation | null> {
    const stored = await this.redis.hget(this.key(uid), id);
    return stored === null ? null : (JSON.parse(stored) as Generation);
  }

  async getMany(uid: string, ids: readonly string[]): Promise<Map<string, Generation>> {
    if (ids.length === 0) return new Map();
    const stored = await this.redis.hmget(this.key(uid), ...ids);
    const found = new Map<string, Generation>();
    stored.forEach((value, index) => {
      if (value !== null) found.set(ids[index]!, JSON.parse(value) as Generation);
    });
    return found;
  }
}
