import {
  AccountClosedError,
  changePlan,
  type AccountBalance,
  type GenerationJobOwner,
  type GenerationLifecycle,
} from '@mediagen/core';
import type { PlanCatalogue, PlanChange, PlanId } from '@mediagen/shared';
import { notFound } from '../http/errors';

interface Options {
  lifecycle: Pick<GenerationLifecycle, 'setPlan' | 'balance' | 'queuedOf'>;
  jobs: Pick<GenerationJobOwner, 'reprioritized'>;
  plans: PlanCatalogue;
}

/**
 * Operators set a user's plan (no payment provider is reachable from here). It takes effect at once: the
 * balance moves to the new allowance, jobs still waiting move to the plan's priority, and served files
 * follow the plan's watermark from the next request.
 */
export class PlanService {
  constructor(private readonly options: Options) {}

  async get(uid: string): Promise<PlanChange> {
    return { uid, changed: false, from: null, ...view(await this.options.lifecycle.balance(uid)) };
  }

  async set(uid: string, plan: PlanId, reason: string): Promise<PlanChange> {
    const { lifecycle, jobs, plans } = this.options;
    const result = await changePlan({ lifecycle, jobs, plans }, uid, plan, reason).catch((error: unknown) => {
      // A closed account has no plan to set: there is no such user any more.
      throw error instanceof AccountClosedError ? notFound() : error;
    });
    return { uid, changed: result.changed, from: result.from, ...view(result.balance) };
  }
}

function view(balance: AccountBalance) {
  return {
    plan: balance.plan,
    tokens: balance.tokens,
    allowance: balance.allowance,
    resetsAt: balance.resetsAt.toISOString(),
  };
}
