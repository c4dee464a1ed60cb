import { sql, type RawBuilder } from 'kysely';
import { GENERATION_KINDS, periodMs, type GenerationKind, type PlanCatalogue, type PlanId } from '@mediagen/shared';
import { utcDay } from '../spend/spend-ledger';
import { allowanceColumn, planRulesTable, tokensColumn } from './plan-rules-table';
import { INSERT_LEDGER_LINES } from './lifecycle-sql';

/** The account as a charge saw it, as JSON: enough to say why it refused. */
export interface AccountSeen {
  in_flight: number;
  period_started_at: string;
  plan: PlanId;
  spend_capped: boolean;
}

/** Why a charge took nothing; it changed nothing either. */
export type ChargeRefusal =
  | { status: 'exhausted'; resetsAt: Date; plan: PlanId }
  /** The user's provider cost today reached their plan's daily cap (PlanRules.dailySpendCapUsd). */
  | { status: 'spend-capped'; capUsd: number }
  | { status: 'too-many-in-flight'; inFlight: number };

/**
 * The charge, written once for a submission and for an operator's retry. Over a CTE `input` with the
 * columns (ord int, id text, uid text, kind text, tokens int, max_in_flight int, charge boolean, email_hash
 * text), where `id` is the generation charged for, `tokens` how many it takes together (one per image of a
 * set: all or none) and `charge` is false for an operator's free retry (it takes an in-flight slot but no
 * token), these CTEs follow:
 * - `old`: each input row with its owner's account, locked (in uid order, so statements never wait on
 *   each other in a circle), and the plan's rules; no row for an owner with no account (none yet, or
 *   closed, which the caller tells apart);
 * - `charged`: the input rows whose owner passed every rule, with the account charged. Rules, in order:
 *   the balance refills to the allowance once the period (30 days, Enterprise's one day) is over, and the
 *   period starts again; the in-flight cap; the plan's daily spend cap; `tokens` of the kind left. The
 *   account keeps the email hash it was charged with (the key of the trace closing it leaves);
 * - `charge_ledger`: a ledger line for the charge (`reason`) and one per kind for a period that began.
 */
export function chargeSteps(options: {
  now: Date;
  plans: PlanCatalogue;
  /** The owners of `input`, so the accounts are read through their index. */
  uids: readonly string[];
  reason: string;
}): RawBuilder<unknown> {
  const { now, plans } = options;
  const ts = sql`${now}::timestamptz`;
  // The balance of `kind` the charge sees: the plan's allowance when the period is over, else what is left.
  const available = (kind: GenerationKind) =>
    sql`case when o.due then o.${allowanceColumn(kind)} else o.${tokensColumn(kind)} end`;
  return sql`old as (
        select i.ord, i.id, i.kind, i.tokens, i.max_in_flight, i.charge, i.email_hash,
          a.uid, a.plan, a.period_started_at, a.image_tokens, a.video_tokens, a.speech_tokens, a.in_flight,
          p.image_allowance, p.video_allowance, p.speech_allowance, p.queue_priority,
          a.period_started_at <= ${ts} - p.period as due,
          coalesce((select s.usd from user_spend_daily s where s.uid = a.uid and s.day = ${utcDay(now.getTime())}::date), 0)
            >= p.daily_spend_cap as spend_capped
        from input i join accounts a on a.uid = i.uid join ${planRulesTable(plans)} on p.plan = a.plan
        -- Read through the index: the planner cannot tell how few rows the input has and would otherwise
        -- hash every account.
        where a.uid = any(${options.uids}::text[])
        order by a.uid
        for update of a
      ), charged as (
        update accounts a set
          period_started_at = case when o.due then ${ts} else o.period_started_at end,
          ${sql.join(
            GENERATION_KINDS.map(
              (kind) =>
                sql`${tokensColumn(kind)} = ${available(kind)} - (o.charge and o.kind = ${kind})::int * o.tokens`,
            ),
          )},
          in_flight = o.in_flight + 1,
          email_hash = coalesce(o.email_hash, a.email_hash)
        from old o
        where a.uid = o.uid and o.in_flight < o.max_in_flight and not o.spend_capped
          and (not o.charge or case o.kind ${sql.join(
            GENERATION_KINDS.map((kind) => sql`when ${kind} then ${available(kind)}`),
            sql` `,
          )} end >= o.tokens)
        returning o.ord, o.id, o.uid, o.kind, o.tokens, o.charge, o.due, o.queue_priority,
          o.image_tokens as old_image, o.video_tokens as old_video, o.speech_tokens as old_speech,
          o.image_allowance, o.video_allowance, o.speech_allowance
      ), charge_ledger as (
        ${INSERT_LEDGER_LINES}
        select c.uid, c.kind, c.id, 'charge', -c.tokens, ${options.reason}, ${ts} from charged c where c.charge
        union all
        select c.uid, refill.kind, null, 'period_reset', refill.amount, 'a new 30-day period began', ${ts}
        from charged c cross join lateral (values
          ('image', c.image_allowance - c.old_image),
          ('video', c.video_allowance - c.old_video),
          ('speech', c.speech_allowance - c.old_speech)) as refill(kind, amount)
        where c.due
      )`;
}

/** SQL: the account the charge of input row `ord` saw, as JSON (AccountSeen); null when it had none. */
export function accountSeen(ord: RawBuilder<unknown>): RawBuilder<AccountSeen | null> {
  return sql<AccountSeen | null>`(select json_build_object('in_flight', o.in_flight,
    'period_started_at', o.period_started_at, 'plan', o.plan, 'spend_capped', o.spend_capped)
    from old o where o.ord = ${ord})`;
}

/** Why the charge refused an owner whose account it saw. */
export function refusalOf(account: AccountSeen, maxInFlight: number, plans: PlanCatalogue): ChargeRefusal {
  if (account.in_flight >= maxInFlight) return { status: 'too-many-in-flight', inFlight: account.in_flight };
  if (account.spend_capped) return { status: 'spend-capped', capUsd: plans[account.plan].dailySpendCapUsd };
  const period = periodMs(plans[account.plan]);
  return {
    status: 'exhausted',
    resetsAt: new Date(Date.parse(account.period_started_at) + period),
    plan: account.plan,
  };
}
