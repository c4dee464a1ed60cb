import { sql } from 'kysely';
import { exceedsPlan, type GenerationRequest, type PlanId } from '@mediagen/shared';
import { toRecord, type GenerationRecord } from './generation-record';
import type { LifecycleContext } from './lifecycle-context';
import { announce, NEXT_IN_LINE } from './lifecycle-sql';
import { accountSeen, chargeSteps, refusalOf, type AccountSeen, type ChargeRefusal } from './token-charge';

/** An operator's retry of a failed generation: charged (unless free) by the same rules as a submission. */
export type RetryOutcome =
  | { ok: true; generation: GenerationRecord; plan: PlanId }
  | { ok: false; reason: 'not-found' | 'not-allowed'; current: GenerationRecord | null }
  /** The request goes beyond what its owner's plan allows now (`message` says how). */
  | { ok: false; reason: 'beyond-plan'; message: string; current: GenerationRecord }
  | { ok: false; reason: 'refused'; refusal: ChargeRefusal; current: GenerationRecord };

/**
 * An operator puts a failed generation back in the queue, by a submission's rules: the owner's plan must
 * allow its request now, and the charge is a submission's (the balance refills first once the period is
 * over, then the in-flight cap, the daily spend cap, a token left). `charge: false` runs it on the house:
 * an in-flight slot but no token, and its end moves none. Its place in line is last of its plan's level.
 */
export async function retryFailed(
  context: LifecycleContext,
  id: string,
  { charge, maxInFlight }: { charge: boolean; maxInFlight: number },
): Promise<RetryOutcome> {
  const { plans } = context;
  return context.db.transaction().execute(async (trx): Promise<RetryOutcome> => {
    // The account first, then the generation: the order of every statement that moves tokens.
    const owner = await sql<{ uid: string; plan: PlanId }>`
        select a.uid, a.plan from accounts a where a.uid = (select g.uid from generations g where g.id = ${id})
        for update`.execute(trx);
    const account = owner.rows[0];
    const row = await trx.selectFrom('generations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (account === undefined || row === undefined) return { ok: false, reason: 'not-found', current: null };
    const current = toRecord(row);
    if (current.status !== 'failed') return { ok: false, reason: 'not-allowed', current };
    const request = { kind: current.kind, ...current.request } as GenerationRequest;
    const beyond = exceedsPlan(request, account.plan, plans[account.plan]);
    if (beyond !== null) return { ok: false, reason: 'beyond-plan', message: beyond, current };

    const now = context.now();
    const input = [
      {
        ord: 0,
        id,
        uid: account.uid,
        kind: current.kind,
        tokens: current.tokenCount,
        max_in_flight: maxInFlight,
        charge,
      },
    ];
    const { rows } = await sql<{ generation: Record<string, unknown> | null; account: AccountSeen | null }>`
        with input as (
          select *, null::text as email_hash from json_to_recordset(${JSON.stringify(input)}::json)
            as i(ord int, id text, uid text, kind text, tokens int, max_in_flight int, charge boolean)
        ), ${chargeSteps({ now, plans, uids: [account.uid], reason: 'retried by an operator' })}, moved as (
          update generations g set status = 'queued', version = g.version + 1, updated_at = ${now},
            token = case when c.charge then 'held' else 'waived' end, tokens_returned = 0, paid_calls = 0, error_code = null,
            error_message = null, provider_error = null, started_at = null, provider_started_at = null, provider_task_id = null,
            finished_at = null, queue_priority = c.queue_priority, queue_order = ${NEXT_IN_LINE}
          from charged c where g.id = c.id
          returning g.*
        )
        select (select row_to_json(m) from moved m) as generation,
          (select ${announce('m')} from moved m) as announced,
          ${accountSeen(sql`0`)} as account`.execute(trx);
    const { generation, account: seen } = rows[0]!;
    if (generation !== null) return { ok: true, generation: toRecord(generation), plan: account.plan };
    return { ok: false, reason: 'refused', refusal: refusalOf(seen!, maxInFlight, plans), current };
  });
}
