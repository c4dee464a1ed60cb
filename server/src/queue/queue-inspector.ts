import { LRUCache } from 'lru-cache';
import { type GenerationJobOwner, type RecentRunTimes, type SpendControls } from '@mediagen/core';
import { GENERATION_KINDS, PROVIDER_OF_KIND, type GenerationKind } from '@mediagen/shared';

/** The states of `mediagen_queue_jobs`. */
export const COUNTED_JOB_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;
/** How long worker counts and mean run times are reused: they change slowly, and ETAs are read often. */
const ETA_INPUTS_CACHE_MS = 5000;
const NO_RUN_CACHE_MS = 1000;

/** What the queues look like, for ETAs and metrics, through BullMQ's public API and the workers' run times. */
export class QueueInspector {
  // getWorkersCount uses CLIENT LIST, which a managed Redis may refuse: the ETA is then unknown, not wrong.
  private readonly workerCounts = new LRUCache<GenerationKind, { count: number | null }>({
    max: GENERATION_KINDS.length,
    ttl: ETA_INPUTS_CACHE_MS,
    fetchMethod: async (kind) => ({
      count: await this.jobs
        .queue(kind)
        .getWorkersCount()
        .catch(() => null),
    }),
  });
  // "No run yet" is kept for a second only: the first completed run soon gives ETAs.
  private readonly meanRuns = new LRUCache<GenerationKind, { ms: number | null }>({
    max: GENERATION_KINDS.length,
    ttl: ETA_INPUTS_CACHE_MS,
    fetchMethod: async (kind, _stale, { options }) => {
      const ms = await this.runTimes.meanMs(kind).catch(() => null);
      if (ms === null) options.ttl = NO_RUN_CACHE_MS;
      return { ms };
    },
  });

  // Read for every queued generation shown: the kill switch and budgets are re-read once a second.
  private readonly heldBack = new LRUCache<GenerationKind, { held: boolean }>({
    max: GENERATION_KINDS.length,
    ttl: 1000,
    fetchMethod: async (kind) => ({
      held: (await this.spend.holdBack(PROVIDER_OF_KIND[kind]).catch(() => null)) !== null,
    }),
  });

  constructor(
    private readonly jobs: Pick<GenerationJobOwner, 'queue'>,
    private readonly runTimes: RecentRunTimes,
    private readonly spend: Pick<SpendControls, 'holdBack'>,
  ) {}

  async isHeldBack(kind: GenerationKind): Promise<boolean> {
    return (await this.heldBack.fetch(kind))?.held ?? false;
  }

  /** Worker connections serving a kind; null when unknown. */
  async workerCount(kind: GenerationKind): Promise<number | null> {
    return (await this.workerCounts.fetch(kind))?.count ?? null;
  }

  /** Mean of the kind's latest completed runs (ms), as the workers recorded them; null before any. */
  async meanRunMs(kind: GenerationKind): Promise<number | null> {
    return (await this.meanRuns.fetch(kind))?.ms ?? null;
  }

  jobCounts(kind: GenerationKind): Promise<Record<string, number>> {
    return this.jobs.queue(kind).getJobCounts(...COUNTED_JOB_STATES);
  }

  isPaused(kind: GenerationKind): Promise<boolean> {
    return this.jobs.queue(kind).isPaused();
  }
}
