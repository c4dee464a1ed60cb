import type { Job } from 'bullmq';
import { kindOfGenerationId, type GenerationJobData } from '@mediagen/core';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';

export type GenerationJob = Job<GenerationJobData>;

/** Every state a job can be read in; a scan reads each of them. */
export const ALL_STATES = [
  'active',
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
  'completed',
] as const;

export interface JobSummary {
  id: string;
  kind: GenerationKind;
  state: string;
  uid: string;
  createdAt: string;
  progress: number;
  attemptsMade: number;
  taskId?: string;
  error?: string;
}

/** Ids start with their kind (`image_…`); anything else is looked for in every queue. */
export async function findJob(
  ctx: OpsContext,
  id: string,
): Promise<{ kind: GenerationKind; job: GenerationJob } | null> {
  const kind = kindOfGenerationId(id);
  for (const candidate of kind === null ? GENERATION_KINDS : [kind]) {
    const job = (await ctx.queues[candidate].getJob(id)) as GenerationJob | undefined;
    if (job !== undefined) return { kind: candidate, job };
  }
  return null;
}

export async function summarize(kind: GenerationKind, job: GenerationJob): Promise<JobSummary> {
  return {
    id: job.id!,
    kind,
    state: await job.getState(),
    uid: job.data.uid,
    createdAt: new Date(job.data.createdAt ?? job.timestamp).toISOString(),
    progress: typeof job.progress === 'number' ? job.progress : 0,
    attemptsMade: job.attemptsMade,
    ...(job.data.video?.taskId === undefined ? {} : { taskId: job.data.video.taskId }),
    ...(job.failedReason ? { error: job.failedReason } : {}),
  };
}

/**
 * Reads at most `limit` jobs per queue (newest first per state) and keeps those `match` accepts. A scan
 * is the fallback when no index knows the answer, so it is bounded rather than complete.
 */
export async function scanJobs(
  ctx: OpsContext,
  kinds: readonly GenerationKind[],
  limit: number,
  match: (job: GenerationJob) => boolean,
): Promise<{ found: { kind: GenerationKind; job: GenerationJob }[]; scanned: number }> {
  const found: { kind: GenerationKind; job: GenerationJob }[] = [];
  let scanned = 0;
  for (const kind of kinds) {
    const jobs = (await ctx.queues[kind].getJobs([...ALL_STATES], 0, limit - 1)) as (GenerationJob | undefined)[];
    for (const job of jobs.slice(0, limit)) {
      if (job === undefined) continue;
      scanned += 1;
      if (match(job)) found.push({ kind, job });
    }
  }
  return { found, scanned };
}
