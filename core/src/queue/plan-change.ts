import type { Queue } from 'bullmq';
import type { GenerationKind, PlanCatalogue, PlanId } from '@mediagen/shared';
import type { GenerationLifecycle } from '../lifecycle/generation-lifecycle';
import type { GenerationJobData } from './generation-jobs';

/** A job in one of these states waits for a worker: its priority can still change. */
const WAITING_JOB_STATES: ReadonlySet<string> = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

export interface PlanChangeDeps {
  lifecycle: Pick<GenerationLifecycle, 'setPlan' | 'queuedOf'>;
  queue(kind: GenerationKind): Queue<GenerationJobData>;
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
  if (!result.changed) return result;
  const priority = deps.plans[plan].queuePriority;
  const waiting = await deps.lifecycle.queuedOf(uid);
  await Promise.all(
    waiting.map(async ({ id, kind }) => {
      const job = await deps.queue(kind).getJob(id);
      if (job === undefined || !WAITING_JOB_STATES.has(await job.getState())) return;
      // Taken by a worker between the two reads: it runs at the priority it had.
      await job.changePriority({ priority }).catch(() => undefined);
    }),
  );
  return result;
}
