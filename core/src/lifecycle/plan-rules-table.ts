import { sql, type RawBuilder } from 'kysely';
import { PLAN_IDS, periodMs, type GenerationKind, type PlanCatalogue } from '@mediagen/shared';

export const tokensColumn = (kind: GenerationKind) => sql.ref(`${kind}_tokens`);
export const allowanceColumn = (kind: GenerationKind) => sql.ref(`${kind}_allowance`);

/**
 * The plans' allowances, periods, daily spend caps and priorities as a table `p`, for statements to join
 * (values are parameters: the statement text is fixed).
 */
export function planRulesTable(plans: PlanCatalogue): RawBuilder<unknown> {
  const rows = PLAN_IDS.map((plan) => {
    const { allowance } = plans[plan];
    return sql`(${plan}::text, ${allowance.image}::int, ${allowance.video}::int, ${allowance.speech}::int,
        ${periodMs(plans[plan])} * interval '1 millisecond', ${plans[plan].dailySpendCapUsd}::numeric,
        ${plans[plan].queuePriority}::int)`;
  });
  return sql`(values ${sql.join(rows)})
      as p(plan, image_allowance, video_allowance, speech_allowance, period, daily_spend_cap, queue_priority)`;
}
