import type { TokenBalance } from '@mediagen/shared';
import type { GenerationKind } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';
import { userJobs } from './find-jobs';

export interface DrainedJob {
  id: string;
  kind: GenerationKind;
  state: string;
  action: 'removed' | 'canceled, left for a worker' | 'canceled, worker stops it' | 'untouched';
  refunded: boolean;
}

export interface DrainResult {
  uid: string;
  jobs: DrainedJob[];
  tokens: TokenBalance;
}

const QUEUED = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Stops everything a user has in flight, as if they had canceled each job: the cancel flag (which the
 * API reads as 'canceled' and which reaches active workers at once through the cancellations channel),
 * the token refund (idempotent, so a worker refunding too changes nothing), and, unless `keepJobs`,
 * the removal of jobs no worker holds yet. Finished jobs are left alone.
 */
export async function drainUser(
  ctx: OpsContext,
  uid: string,
  options: { scan: number; keepJobs: boolean },
): Promise<DrainResult> {
  const { found } = await userJobs(ctx, uid, options.scan);
  const jobs: DrainedJob[] = [];
  for (const { kind, job } of found) {
    const state = await job.getState();
    const base = { id: job.id!, kind, state };
    if (state !== 'active' && !QUEUED.has(state)) {
      jobs.push({ ...base, action: 'untouched', refunded: false });
      continue;
    }
    await ctx.cancellations.cancel(job.id!);
    const refunded = await ctx.ledger.refund(uid, kind, job.id!);
    if (state === 'active') {
      jobs.push({ ...base, action: 'canceled, worker stops it', refunded });
    } else if (options.keepJobs) {
      jobs.push({ ...base, action: 'canceled, left for a worker', refunded });
    } else {
      // A job taken by a worker in the meantime cannot be removed; its worker sees the flag instead.
      const removed = await job.remove().then(
        () => true,
        () => false,
      );
      jobs.push({ ...base, action: removed ? 'removed' : 'canceled, worker stops it', refunded });
    }
  }
  return { uid, jobs, tokens: (await ctx.ledger.balance(uid)).tokens };
}
