import {
  recordPass,
  type GenerationJobOwner,
  type GenerationLifecycle,
  type GenerationReads,
  type TouchedGeneration,
} from '@mediagen/core';

interface Options {
  reads: Pick<GenerationReads, 'waitingToAge'>;
  lifecycle: Pick<GenerationLifecycle, 'moveInLine'>;
  jobs: Pick<GenerationJobOwner, 'reprioritized'>;
  /** A job that has waited this long runs next, whatever its plan (PRIORITY_AGING_SECONDS). */
  afterMs: number;
  /** The best priority of any plan (Enterprise's). */
  topPriority: number;
  /** Waiting generations looked at per pass, oldest first. */
  batch?: number;
  clock?: () => number;
}

/**
 * Strict priorities would let a steady stream of paid jobs hold free ones back for ever. A job still
 * waiting `afterMs` after its submission moves to the top priority, behind the jobs already there, once:
 * a free job waits at most that long plus the paid work that was ahead of it then. The record's line
 * moves with it, so places in line stay those of the queue, and a pass looks only at jobs not yet moved.
 */
export class PriorityAging {
  constructor(private readonly options: Options) {}

  /** One pass; the ids of the generations it moved up. */
  async pass(): Promise<string[]> {
    const { reads, lifecycle, jobs, afterMs, topPriority } = this.options;
    const now = (this.options.clock ?? Date.now)();
    const waiting = await reads.waitingToAge({
      queuedBefore: new Date(now - afterMs),
      topPriority,
      limit: this.options.batch ?? 200,
    });
    const promoted: TouchedGeneration[] = [];
    for (const generation of waiting) {
      // The record's line first, then the job: a job a worker took meanwhile runs as it is, and one gone
      // from Redis is the reconciler's to put back, at the priority the record now says.
      if (!(await lifecycle.moveInLine(generation.id, topPriority))) continue;
      if (await jobs.reprioritized(generation, topPriority)) promoted.push(generation);
    }
    recordPass('priority aging', new Date(now), promoted, { 'mediagen.job.priority': topPriority });
    return promoted.map((generation) => generation.id);
  }
}
