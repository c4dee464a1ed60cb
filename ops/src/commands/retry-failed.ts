import type { GenerationKind } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';
import type { GenerationJob } from './job-lookup';

export interface RetryOutcome {
  id: string;
  kind: GenerationKind;
  uid: string;
  result: 'retried' | 'skipped: canceled' | 'skipped: no tokens left';
  charged: boolean;
}

/**
 * Failed jobs gave their token back, so a retry charges it again (unless `free`); a user with none
 * left is skipped. Canceled jobs stay canceled. The job starts over: its attempts, its deadline clock,
 * its error and any video task state are cleared, so it does not fail at once on what failed it before.
 */
export async function retryFailed(
  ctx: OpsContext,
  kinds: readonly GenerationKind[],
  options: { limit: number; free: boolean },
): Promise<RetryOutcome[]> {
  const outcomes: RetryOutcome[] = [];
  for (const kind of kinds) {
    const remaining = options.limit - outcomes.length;
    if (remaining <= 0) break;
    const failed = (await ctx.queues[kind].getFailed(0, remaining - 1)) as (GenerationJob | undefined)[];
    for (const job of failed) {
      if (job === undefined) continue;
      outcomes.push(await retryOne(ctx, kind, job, options.free));
    }
  }
  return outcomes;
}

async function retryOne(
  ctx: OpsContext,
  kind: GenerationKind,
  job: GenerationJob,
  free: boolean,
): Promise<RetryOutcome> {
  const base = { id: job.id!, kind, uid: job.data.uid };
  if (await ctx.cancellations.isCanceled(job.id!)) return { ...base, result: 'skipped: canceled', charged: false };
  let charged = false;
  if (!free) {
    const charge = await ctx.ledger.consume(job.data.uid, kind, job.id!);
    if (charge.status === 'exhausted') return { ...base, result: 'skipped: no tokens left', charged: false };
    charged = charge.status === 'charged';
  }
  try {
    const { error: _error, startedAt: _startedAt, video: _video, ...data } = job.data;
    await job.updateData(data);
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    await job.log('retried by an operator (pnpm queues retry-failed)');
  } catch (error) {
    if (charged) await ctx.ledger.refund(job.data.uid, kind, job.id!);
    throw error;
  }
  return { ...base, result: 'retried', charged };
}
