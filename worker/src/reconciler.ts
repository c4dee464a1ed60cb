import { sql, type Kysely } from 'kysely';
import {
  recordPass,
  type Database,
  type GenerationJobOwner,
  type GenerationLifecycle,
  type GenerationReads,
  type TouchedGeneration,
} from '@mediagen/core';
import type { PlanCatalogue } from '@mediagen/shared';
import { deadlineError } from './generation-error';
import type { JobDeadline } from './config';
import { giveBackPendingCalls } from './paid-calls';

/** One reconciler across every worker process: a PostgreSQL advisory lock (an arbitrary, fixed number). */
const RECONCILER_LOCK = 7_446_210_901;
/** Generations checked per pass; the rest wait for the next one. */
const BATCH = 500;
const LIVE_JOB_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
]);

export interface ReconcileReport {
  checked: number;
  /** Generations whose job was gone, put back in their queue. */
  requeued: string[];
  /** Generations whose job was gone for longer than their deadline allows, ended as failed. */
  expired: string[];
  /** Generations whose job had ended without the record being told, told now. */
  concluded: string[];
  /** Generations whose job keeps paid calls to give back that the record refused: left for the next pass. */
  givingBack: string[];
}

export interface ReconcilerOptions {
  /** For the advisory lock that keeps to one reconciler at a time; the record is read through `reads`. */
  db: Kysely<Database>;
  reads: Pick<GenerationReads, 'untouchedUnfinished'>;
  lifecycle: GenerationLifecycle;
  jobs: Pick<GenerationJobOwner, 'queue' | 'requeued'>;
  plans: PlanCatalogue;
  /** A generation untouched for this long is checked (the API enqueues right after it records). */
  staleAfterMs: number;
  /** Per generation, as the job runner has them (config.ts, jobDeadlineOf). */
  jobDeadlineMs: JobDeadline;
  clock?: () => number;
}

/**
 * Brings the record and the queues back together after what neither can see alone: a Redis crash, flush
 * or failover that lost jobs, an API process that died between recording a generation and enqueueing it,
 * a worker that ended a job while the database was away. For each generation still queued or active and
 * untouched for a while:
 * - its job lives: nothing to do;
 * - its job kept paid calls that cost the owner nothing and that the record could not take back then:
 *   they are given back first (and the rest waits for a pass in which the record takes them);
 * - its job ended and left an outcome the record was never told: it is told now;
 * - its job is gone: it goes back in its queue (an active one resumes: a video's task id is in the
 *   record, so no second paid task starts, and the paid-call cap bounds the rest), unless it is past its
 *   deadline, in which case it is failed and its token refunded or spent by the lifecycle's rules.
 * Only one process reconciles at a time; every step is a compare-and-set, so two would be harmless.
 */
export class Reconciler {
  private readonly clock: () => number;

  constructor(private readonly options: ReconcilerOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** One pass; null when another process holds the reconciler lock. */
  async reconcile(): Promise<ReconcileReport | null> {
    return this.options.db.connection().execute(async (connection) => {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${RECONCILER_LOCK}) as locked`.execute(connection);
      if (rows[0]?.locked !== true) return null;
      try {
        return await this.pass();
      } finally {
        await sql`select pg_advisory_unlock(${RECONCILER_LOCK})`.execute(connection);
      }
    });
  }

  private async pass(): Promise<ReconcileReport> {
    const { reads, lifecycle, jobs } = this.options;
    const now = this.clock();
    const report: ReconcileReport = { checked: 0, requeued: [], expired: [], concluded: [], givingBack: [] };
    const unfinished = await reads.untouchedUnfinished(new Date(now - this.options.staleAfterMs), BATCH);
    const touched: TouchedGeneration[] = [];
    for (const generation of unfinished) {
      report.checked += 1;
      const job = await jobs.queue(generation.kind).getJob(generation.id);
      const state = job === undefined ? 'unknown' : await job.getState();
      if (LIVE_JOB_STATES.has(state)) continue;
      // Before the outcome, an expiry or a requeue (a fresh job would not carry them): told an ending
      // first, the record would settle the token as spent for calls that cost the owner nothing.
      if (job !== undefined) {
        const givenBack = await giveBackPendingCalls(job, lifecycle).then(
          () => true,
          () => false,
        );
        if (!givenBack) {
          report.givingBack.push(generation.id);
          continue;
        }
      }
      const outcome = job?.data.outcome;
      if (job !== undefined && outcome !== undefined && generation.status === 'active') {
        const told =
          'completed' in outcome
            ? await lifecycle.complete(generation.id, outcome.completed)
            : await lifecycle.fail(generation.id, outcome.failed);
        if (told.ok) {
          report.concluded.push(generation.id);
          touched.push(generation);
        }
        continue;
      }
      // A job that ended without an outcome kept (or one an operator removed) is gone for our purposes.
      const overdue =
        generation.status === 'active' &&
        generation.startedAt !== null &&
        generation.startedAt.getTime() + this.options.jobDeadlineMs(generation) < now;
      if (overdue) {
        const error = deadlineError(generation.kind);
        if ((await lifecycle.expire(generation.id, { code: error.code, message: error.message })).ok) {
          report.expired.push(generation.id);
          touched.push(generation);
        }
        continue;
      }
      // At the priority it had (the priority aging may have moved it up), last of that level in BullMQ and
      // in the record's line alike.
      const priority = generation.queuePriority ?? this.options.plans[generation.plan ?? 'free'].queuePriority;
      await jobs.requeued(generation, priority);
      await lifecycle.moveInLine(generation.id, priority);
      report.requeued.push(generation.id);
      touched.push(generation);
    }
    recordPass('reconciler pass', new Date(now), touched, {
      'mediagen.reconciler.requeued': report.requeued.length,
      'mediagen.reconciler.expired': report.expired.length,
      'mediagen.reconciler.concluded': report.concluded.length,
    });
    return report;
  }
}
