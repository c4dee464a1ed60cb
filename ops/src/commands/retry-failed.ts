import type { RetryOutcome } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';

export type RetryResult =
  | 'retried'
  | 'skipped: no tokens left'
  | 'skipped: too many in flight'
  | 'skipped: daily spend limit'
  | 'skipped: beyond the plan'
  | 'skipped: no longer failed';

export interface RetryReport {
  id: string;
  kind: GenerationKind;
  uid: string;
  result: RetryResult;
  charged: boolean;
  /** Why, in the words a submission would be refused with (beyond the plan). */
  detail?: string;
}

/**
 * Puts failed generations back in their queue, oldest failure first, through the lifecycle, by a
 * submission's rules: the owner's plan must allow the request now, the owner may not be past the in-flight
 * cap or the daily spend cap, and is charged a token (the balance refilled first if the period is over),
 * unless `free`, when it runs on the house and its end moves no token. A generation any rule refuses is
 * skipped and says why. Its old job makes way for a fresh one at the plan's priority.
 */
export async function retryFailed(
  ctx: OpsContext,
  kinds: readonly GenerationKind[],
  options: { limit: number; free: boolean },
): Promise<RetryReport[]> {
  const failed = await ctx.reads.failedOldestFirst(kinds, options.limit);
  const reports: RetryReport[] = [];
  for (const { id, kind, uid } of failed) {
    const retried = await ctx.lifecycle.retry(id, {
      charge: !options.free,
      maxInFlight: ctx.settings.maxInFlightPerUser,
    });
    if (!retried.ok) {
      reports.push({ id, kind, uid, ...skipped(retried), charged: false });
      continue;
    }
    await ctx.jobs.requeued(retried.generation, ctx.settings.plans[retried.plan].queuePriority);
    reports.push({ id, kind, uid, result: 'retried', charged: !options.free });
  }
  return reports;
}

function skipped(outcome: Exclude<RetryOutcome, { ok: true }>): Pick<RetryReport, 'result' | 'detail'> {
  switch (outcome.reason) {
    case 'not-found':
    case 'not-allowed':
      return { result: 'skipped: no longer failed' };
    case 'beyond-plan':
      return { result: 'skipped: beyond the plan', detail: outcome.message };
    case 'refused':
      switch (outcome.refusal.status) {
        case 'exhausted':
          return { result: 'skipped: no tokens left' };
        case 'too-many-in-flight':
          return { result: 'skipped: too many in flight' };
        case 'spend-capped':
          return { result: 'skipped: daily spend limit' };
      }
  }
}
