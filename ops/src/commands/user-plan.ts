import { AccountClosedError, changePlan, type AccountBalance } from '@mediagen/core';
import type { PlanId } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';
import { NotFoundError } from '../ops-errors';

export interface PlanResult {
  changed: boolean;
  from: PlanId | null;
  balance: AccountBalance;
}

/**
 * A user's plan and balance; with a plan, moves the user to it at once, as the API's plan change does:
 * balances, the record's line and the waiting jobs' priority in the queues.
 */
export async function userPlan(ctx: OpsContext, uid: string, plan: PlanId | null, reason: string): Promise<PlanResult> {
  if (plan === null) return { changed: false, from: null, balance: await ctx.lifecycle.balance(uid) };
  const deps = { lifecycle: ctx.lifecycle, jobs: ctx.jobs, plans: ctx.settings.plans };
  return changePlan(deps, uid, plan, reason).catch((error: unknown) => {
    throw error instanceof AccountClosedError ? new NotFoundError(`the account of user '${uid}' was closed`) : error;
  });
}
