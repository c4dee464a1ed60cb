import { LRUCache } from 'lru-cache';
import { naturalBatches, type RecentRunTimes, type SpendControls } from '@mediagen/core';
import { GENERATION_KINDS, PROVIDER_OF_KIND, type GenerationKind } from '@mediagen/shared';
import type { GenerationProducer } from './generation-producer';

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
      count: await this.producer
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

  /** Reads of the line that arrive together share one (per kind), begun after each of them was asked. */
  private readonly waitingReads = Object.fromEntries(
    GENERATION_KINDS.map((kind) => [kind, naturalBatches((upTo: readonly number[]) => this.readWaiting(kind, upTo))]),
  ) as Record<GenerationKind, (upTo: number) => Promise<number[]>>;

  // Read for every queued generation shown: the kill switch and budgets are re-read once a second.
  private readonly heldBack = new LRUCache<GenerationKind, { held: boolean }>({
    max: GENERATION_KINDS.length,
    ttl: 1000,
    fetchMethod: async (kind) => ({
      held: (await this.spend.holdBack(PROVIDER_OF_KIND[kind]).catch(() => null)) !== null,
    }),
  });

  constructor(
    private readonly producer: GenerationProducer,
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

  /**
   * Jobs waiting for a worker, by priority from 0 to `upTo` (the index; lower runs first). The counts are
   * read after this call began.
   */
  waitingByPriority(kind: GenerationKind, upTo: number): Promise<readonly number[]> {
    return this.waitingReads[kind](upTo);
  }

  /** Priority 0 is a job added without one (by an older version): BullMQ runs those first. */
  private async readWaiting(kind: GenerationKind, upTo: readonly number[]): Promise<number[][]> {
    const every = Array.from({ length: Math.max(...upTo) + 1 }, (_, index) => index);
    const counts = await this.producer.queue(kind).getCountsPerPriority(every);
    const line = every.map((level) => counts[level] ?? 0);
    return upTo.map((last) => line.slice(0, last + 1));
  }

  jobCounts(kind: GenerationKind): Promise<Record<string, number>> {
    return this.producer.queue(kind).getJobCounts(...COUNTED_JOB_STATES);
  }

  isPaused(kind: GenerationKind): Promise<boolean> {
    return this.producer.queue(kind).isPaused();
  }
}
