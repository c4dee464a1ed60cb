import type { Redis } from 'ioredis';
import type { GenerationKind } from '@mediagen/shared';
import { runTimesKey } from './redis-keys';

/** Completed runs per kind that the queue ETA averages over. */
export const RUN_TIME_WINDOW = 20;

/**
 * The latest completed run times of each kind, newest first, in Redis. The worker that ran a job writes
 * its run time once; every server reads the same window for queue ETAs, so an ETA is there as soon as a
 * server starts and no server has to read each finished job to learn it.
 */
export class RecentRunTimes {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly window = RUN_TIME_WINDOW,
  ) {}

  async record(kind: GenerationKind, runMs: number): Promise<void> {
    const key = runTimesKey(this.prefix, kind);
    await this.redis
      .multi()
      .lpush(key, Math.max(0, Math.round(runMs)))
      .ltrim(key, 0, this.window - 1)
      .exec();
  }

  /** Mean of the window in ms; null before any run of the kind completed. */
  async meanMs(kind: GenerationKind): Promise<number | null> {
    const runs = (await this.redis.lrange(runTimesKey(this.prefix, kind), 0, this.window - 1)).map(Number);
    if (runs.length === 0) return null;
    return runs.reduce((sum, runMs) => sum + runMs, 0) / runs.length;
  }
}
