import { sql, type RawBuilder } from 'kysely';
import { PLAN_IDS, type PlanCatalogue } from '@mediagen/shared';

/** SQL: a new event's id, the `webhook-id` of every attempt (`msg_` and 32 random hex digits). */
export const NEW_EVENT_ID = sql<string>`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * SQL: the CTE that writes an ending's webhook events, one per active endpoint of the owner that asked
 * for it, in the ending's own statement: they commit with the ending or not at all, so a process dying
 * right after the commit loses none (a NOTIFY would be lost with it). It reads the ended generation as
 * `moved m` and its owner's account, as the ending locked it, as `owner w`: an owner whose plan has no API
 * access (any more) gets none. The worker's dispatcher sends what this leaves behind.
 */
export function webhookOutboxStep(plans: PlanCatalogue, ts: RawBuilder<unknown>): RawBuilder<unknown> {
  const apiPlans = PLAN_IDS.filter((plan) => plans[plan].apiAccess);
  return sql`webhook_outbox as (
            insert into webhook_events (id, endpoint_id, type, generation, created_at)
            select ${NEW_EVENT_ID}, e.id, 'generation.' || m.status, to_jsonb(m) - 'announced', ${ts}
            from moved m
            join owner w on w.uid = m.uid
            join webhook_endpoints e on e.uid = m.uid
            where m.announced and e.disabled_at is null and ('generation.' || m.status) = any(e.events)
              and w.plan = any(${apiPlans}::text[])
          )`;
}
