import { PLAN_IDS, PLAN_TITLES, type PlanId } from '@mediagen/shared';

/**
 * The first plan, cheapest first, that allows what `allows` asks: the plan a locked option names. Plans
 * only add to the one below, so the first that allows it is the one to upgrade to.
 */
export function planUnlocking(allows: (plan: PlanId) => boolean): PlanId | undefined {
  return PLAN_IDS.find(allows);
}

/** An option's label, with the plan that unlocks it when the creator's plan does not include it. */
export function lockedLabel(label: string, unlockedBy: PlanId | undefined): string {
  return unlockedBy === undefined ? label : `${label} (${PLAN_TITLES[unlockedBy]})`;
}
