import { generationJobOptions } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';

export interface RetryOutcome {
  id: string;
  kind: GenerationKind;
  uid: string;
  result: 'retried' | 'skipped: no tokens left' | 'skipped: no longer failed';
  charged: boolean;
}

/**
 * Puts failed generations back in their queue, oldest failure first, through the lifecycle: the owner is
 * charged a token again, as a resubmission would be (a user with none left is skipped), unless `free`,
 * when it runs on the house and its end moves no token. Its old job makes way for a fresh one.
 */
export async function retryFailed(
  ctx: OpsContext,
  kinds: readonly GenerationKind[],
  options: { limit: number; free: boolean },
): Promise<RetryOutcome[]> {
  const failed = await ctx.database.db
    .selectFrom('generations')
    .leftJoin('accounts', 'accounts.uid', 'generations.uid')
    .select(['generations.id', 'generations.kind', 'generations.uid', 'accounts.plan'])
    .where('generations.status', '=', 'failed')
    .where('generations.kind', 'in', kinds)
    .orderBy('generations.finished_at')
    .limit(options.limit)
    .execute();
  const outcomes: RetryOutcome[] = [];
  for (const { id, kind, uid, plan } of failed) {
    const base = { id, kind, uid };
    const retried = await ctx.lifecycle.retry(id, { charge: !options.free });
    if (!retried.ok) {
      const result = retried.reason === 'exhausted' ? 'skipped: no tokens left' : 'skipped: no longer failed';
      outcomes.push({ ...base, result, charged: false });
      continue;
    }
    await ctx.queues[kind].remove(id).catch(() => 0);
    const priority = ctx.settings.plans[plan ?? 'free'].queuePriority;
    await ctx.queues[kind].add(
      kind,
      { kind },
      generationJobOptions(id, ctx.settings.jobs, ctx.settings.jobRetention, priority),
    );
    outcomes.push({ ...base, result: 'retried', charged: !options.free });
  }
  return outcomes;
}
