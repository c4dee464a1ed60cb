import { kindOfGenerationId } from '@mediagen/shared';
import type { GenerationRecord } from '@mediagen/core';
import type { OpsContext } from '../ops-context';
import { NotFoundError } from '../ops-errors';

/** What the queue holds of a generation's job, while it keeps it. */
export interface JobView {
  state: string;
  data: unknown;
  attempts: { made: number; started: number; allowed: number; stalled: number };
  failedReason?: string;
  stacktrace: string[];
  processedBy?: string;
  timestamps: { created: string; lastStarted?: string; finished?: string; delayMs: number };
  logs: string[];
}

export interface JobRecord {
  id: string;
  /** The generation as the record holds it: the truth. */
  generation: GenerationRecord;
  /** Its job in the queue, or null when the queue no longer keeps it (finished jobs are kept a while). */
  job: JobView | null;
}

const iso = (ms: number | undefined | null) =>
  ms === undefined || ms === null ? undefined : new Date(ms).toISOString();

export async function jobRecord(ctx: OpsContext, id: string): Promise<JobRecord> {
  const generation = await ctx.reads.generation(id);
  const kind = kindOfGenerationId(id);
  if (generation === null || kind === null)
    throw new NotFoundError(`no generation '${id}' (never created, or deleted)`);
  const job = await ctx.queues[kind].getJob(id);
  if (job === undefined) return { id, generation, job: null };
  const [state, { logs }] = await Promise.all([job.getState(), ctx.queues[kind].getJobLogs(id, 0, -1, true)]);
  return {
    id,
    generation,
    job: {
      state,
      data: job.data,
      attempts: {
        made: job.attemptsMade,
        started: job.attemptsStarted,
        allowed: job.opts.attempts ?? 1,
        stalled: job.stalledCounter,
      },
      ...(job.failedReason ? { failedReason: job.failedReason } : {}),
      stacktrace: job.stacktrace ?? [],
      ...(job.processedBy === undefined ? {} : { processedBy: job.processedBy }),
      timestamps: {
        created: iso(job.timestamp)!,
        ...(job.processedOn ? { lastStarted: iso(job.processedOn) } : {}),
        ...(job.finishedOn ? { finished: iso(job.finishedOn) } : {}),
        delayMs: job.delay,
      },
      logs,
    },
  };
}
