import type { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import type { Database, GenerationJobData } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';

/** Waiting generations looked at per pass, oldest first. */
const BATCH = 200;

interface Options {
  db: Kysely<Database>;
  queues: Record<GenerationKind, Queue<GenerationJobData>>;
  /** A job that has waited this long runs next, whatever its plan (PRIORITY_AGING_SECONDS). */
  afterMs: number;
  /** The best priority of any plan (Enterprise's). */
  topPriority: number;
  clock?: () => number;
}

/**
 * Strict priorities would let a steady stream of paid jobs hold free ones back for ever. A job still
 * waiting `afterMs` after its submission moves to the top priority, behind the jobs already there, once:
 * a free job waits at most that long plus the paid work that was ahead of it then.
 */
export class PriorityAging {
  constructor(private readonly options: Options) {}

  /** One pass; the ids of the generations it moved up. */
  async pass(): Promise<string[]> {
    const { db, queues, afterMs, topPriority } = this.options;
    const now = (this.options.clock ?? Date.now)();
    const waiting = await db
      .selectFrom('generations')
      .select(['id', 'kind'])
      .where('status', '=', 'queued')
      .where('created_at', '<', new Date(now - afterMs))
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    const promoted: string[] = [];
    for (const { id, kind } of waiting) {
      const job = await queues[kind].getJob(id);
      if (job === undefined || job.priority <= topPriority) continue;
      if ((await job.getState()) !== 'prioritized') continue;
      await job.changePriority({ priority: topPriority });
      promoted.push(id);
    }
    return promoted;
  }
}
