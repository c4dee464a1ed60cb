import type { PlanCatalogue, PlanId } from '@mediagen/shared';
import type { GenerationLifecycle } from '../lifecycle/generation-lifecycle';
import type { GenerationJobOwner } from './job-owner';

export interface PlanChangeDeps {
  lifecycle: Pick<GenerationLifecycle, 'setPlan' | 'queuedOf'>;
  jobs: Pick<GenerationJobOwner, 'reprioritized'>;
  plans: PlanCatalogue;
}

/**
 * Moves a user to another plan (GenerationLifecycle.setPlan: balances and the record's line) and their
 * waiting jobs with it: each takes the new plan's priority, as the record already says. A job a worker
 * takes meanwhile runs as it is. The API's plan change and the queue CLI's `plan` both come here, so the
 * queue never disagrees with the record about who goes first.
 */
export async function changePlan(
  deps: PlanChangeDeps,
  uid: string,
  plan: PlanId,
  reason: string,
): Promise<Awaited<ReturnType<GenerationLifecycle['setPlan']>>> {
  const result = await deps.lifecycle.setPlan(uid, plan, reason);
  if (result.changed) await followPlanInQueue(deps, uid, plan);
  return result;
}

/**
 * The queue's half of a plan change the record already holds: the user's waiting jobs take the plan's
 * priority. Billing's changes (one transaction with their event) come here after their commit.
 */
export async function followPlanInQueue(
  deps: Pick<PlanChangeDeps, 'jobs' | 'plans'> & { lifecycle: Pick<GenerationLifecycle, 'queuedOf'> },
  uid: string,
  plan: PlanId,
): Promise<void> {
  const priority = deps.plans[plan].queuePriority;
  const waiting = await deps.lifecycle.queuedOf(uid);
  await Promise.all(waiting.map((generation) => deps.jobs.reprioritized(generation, priority)));
}
