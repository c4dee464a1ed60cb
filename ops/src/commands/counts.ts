import { queueName, type UnfinishedStatus } from '@mediagen/core';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';

export const COUNTED_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;

export interface QueueCounts {
  kind: GenerationKind;
  queue: string;
  paused: boolean;
  /** ms left on a pause the workers set after a provider 429 or an open breaker; 0 when none. */
  rateLimitedMs: number;
  /** Jobs per BullMQ state (finished jobs only as long as they are kept). Every generation job has its
   * plan's priority, so the jobs waiting for a worker are `prioritized`. */
  counts: Record<(typeof COUNTED_STATES)[number], number>;
  /** Generations the record holds queued and active: what should be in the queue. */
  record: { queued: number; active: number };
}

/** The workers' manual pause sets the limiter key far above any job limit (see worker/README.md). */
const MANUAL_LIMIT_THRESHOLD = 1_000_000_000;

export async function countJobs(ctx: OpsContext): Promise<QueueCounts[]> {
  const unfinished = await ctx.reads.unfinishedCounts();
  const recorded = (kind: GenerationKind, status: UnfinishedStatus) =>
    unfinished.find((row) => row.kind === kind && row.status === status)?.count ?? 0;
  return Promise.all(
    GENERATION_KINDS.map(async (kind) => {
      const queue = ctx.queues[kind];
      const [counts, paused, rateLimitedMs] = await Promise.all([
        queue.getJobCounts(...COUNTED_STATES),
        queue.isPaused(),
        queue.getRateLimitTtl(MANUAL_LIMIT_THRESHOLD),
      ]);
      return {
        kind,
        queue: queueName(kind),
        paused,
        rateLimitedMs: Math.max(0, rateLimitedMs),
        counts: Object.fromEntries(COUNTED_STATES.map((state) => [state, counts[state] ?? 0])) as QueueCounts['counts'],
        record: { queued: recorded(kind, 'queued'), active: recorded(kind, 'active') },
      };
    }),
  );
}
