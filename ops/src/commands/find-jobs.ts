import { userKeys, videoTaskKey } from '@mediagen/core';
import { GENERATION_KINDS } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';
import { findJob, scanJobs, summarize, type GenerationJob, type JobSummary } from './job-lookup';
import type { GenerationKind } from '@mediagen/shared';

export interface FindResult {
  by: 'user' | 'task';
  value: string;
  jobs: JobSummary[];
  /** How many jobs the bounded scan read besides the index lookups. */
  scanned: number;
}

/**
 * A user's jobs: the generations index the quota ledger keeps per user (every charged job), plus a
 * bounded scan for jobs enqueued without a charge. Newest first.
 */
export async function userJobs(
  ctx: OpsContext,
  uid: string,
  scan: number,
): Promise<{ found: { kind: GenerationKind; job: GenerationJob }[]; scanned: number }> {
  const indexed = await ctx.redis.zrevrange(userKeys(ctx.prefix, uid).generations, 0, -1);
  const byId = new Map<string, { kind: GenerationKind; job: GenerationJob }>();
  for (const id of indexed) {
    const found = await findJob(ctx, id);
    if (found !== null && found.job.data.uid === uid) byId.set(id, found);
  }
  const scanned = await scanJobs(ctx, GENERATION_KINDS, scan, (job) => job.data.uid === uid);
  for (const found of scanned.found) byId.set(found.job.id!, found);
  const found = [...byId.values()].sort((a, b) => b.job.timestamp - a.job.timestamp);
  return { found, scanned: scanned.scanned };
}

export async function findJobs(ctx: OpsContext, by: 'user' | 'task', value: string, scan: number): Promise<FindResult> {
  if (by === 'user') {
    const { found, scanned } = await userJobs(ctx, value, scan);
    return { by, value, jobs: await Promise.all(found.map(({ kind, job }) => summarize(kind, job))), scanned };
  }
  // The worker indexes each MiniMax task it starts; the scan covers jobs from before that index.
  const indexedId = await ctx.redis.get(videoTaskKey(ctx.prefix, value));
  const indexed = indexedId === null ? null : await findJob(ctx, indexedId);
  if (indexed !== null) return { by, value, jobs: [await summarize(indexed.kind, indexed.job)], scanned: 0 };
  const { found, scanned } = await scanJobs(ctx, ['video'], scan, (job) => job.data.video?.taskId === value);
  return { by, value, jobs: await Promise.all(found.map(({ kind, job }) => summarize(kind, job))), scanned };
}
