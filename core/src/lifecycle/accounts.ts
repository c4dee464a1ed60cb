import { sql, type Transaction } from 'kysely';
import {
  GENERATION_KINDS,
  periodMs,
  type GenerationKind,
  type PlanId,
  type PlanSource,
  type TokenBalance,
} from '@mediagen/shared';
import type { Database } from '../db/schema';
import { announceAccount } from './account-updates';
import { withAccountLock } from './account-lock';
import type { LifecycleContext } from './lifecycle-context';
import { INSERT_LEDGER_LINES, NEXT_IN_LINE } from './lifecycle-sql';
import { allowanceColumn, planRulesTable, tokensColumn } from './plan-rules-table';

export interface AccountBalance {
  plan: PlanId;
  tokens: TokenBalance;
  allowance: TokenBalance;
  periodStartedAt: Date;
  /** When the balances refill to the allowance (the period's end). */
  resetsAt: Date;
  inFlight: number;
}

/** Who changes a plan and why: an operator's reason, or a billing event's id. */
export interface PlanChangeCause {
  source: Exclude<PlanSource, 'default'>;
  reason: string;
}

export interface PlanChangeResult {
  changed: boolean;
  from: PlanId;
  balance: AccountBalance;
}

/** setPlan on an account that was closed: a closed account is never made again. */
export class AccountClosedError extends Error {
  override readonly name = 'AccountClosedError';

  constructor(readonly uid: string) {
    super(`the account of ${uid} was closed`);
  }
}

/** Accounts open on Free (spec §9); operators move them to another plan (setPlan). */
const FIRST_PLAN: PlanId = 'free';

/** A user's account: made on the first submission, its balance, its plan and a change of plan. */
export class Accounts {
  constructor(private readonly context: LifecycleContext) {}

  /**
   * Makes a user's account on their first submission. Within the period of a closed account with the same
   * email, it starts where that one stopped (its period and what it had spent), and the trace is used up.
   * Under the uid's account lock, so it happens wholly before or after a closure of the same uid: after
   * one, the tombstone is seen and nothing is made (`closed`), and the trace stays for the next account.
   */
  async open(uid: string, emailHash: string | null): Promise<'open' | 'closed'> {
    return withAccountLock(this.context.db, uid, (trx) => this.openIn(trx, uid, emailHash));
  }

  /** `open`, in a transaction that holds the uid's account lock (withAccountLock). */
  async openIn(trx: Transaction<Database>, uid: string, emailHash: string | null): Promise<'open' | 'closed'> {
    const now = this.context.now();
    const ts = sql`${now}::timestamptz`;
    const rules = this.context.plans[FIRST_PLAN];
    const left = (kind: GenerationKind) =>
      sql`greatest(${rules.allowance[kind]} - coalesce(t.${sql.ref(`${kind}_spent`)}, 0), 0)`;
    const { rows } = await sql<{ closed: boolean; open: boolean }>`
      select exists (select 1 from closed_accounts where uid = ${uid}) as closed,
        exists (select 1 from accounts where uid = ${uid}) as open`.execute(trx);
    const { closed, open } = rows[0]!;
    if (closed) return 'closed';
    // Every account row is made under this lock: one seen absent here stays absent until this commits.
    if (open) return 'open';
    await sql`
      with trace as (
        delete from account_traces
        where email_hash = ${emailHash} and period_started_at > ${ts} - ${periodMs(rules)} * interval '1 millisecond'
        returning *
      )
      insert into accounts (uid, period_started_at, image_tokens, video_tokens, speech_tokens, in_flight, created_at,
        email_hash)
      select ${uid}, coalesce(t.period_started_at, ${ts}), ${left('image')}, ${left('video')}, ${left('speech')}, 0, ${ts},
        ${emailHash}
      from (select 1) as one left join trace t on true`.execute(trx);
    return 'open';
  }

  /** The user's plan (Free for a user with no account yet). */
  async planOf(uid: string): Promise<PlanId> {
    const row = await this.context.db.selectFrom('accounts').select('plan').where('uid', '=', uid).executeTakeFirst();
    return row?.plan ?? FIRST_PLAN;
  }

  /**
   * Moves a user to another plan, at once. What the current period has spent stays spent: each balance
   * becomes the new allowance less that (never below 0), or the whole new allowance when the old period
   * was already over; the period itself goes on. One ledger line per kind whose balance moved. Generations
   * still waiting join the new plan's priority level, last of it (as BullMQ moves their jobs). The account
   * records who set it (`source`) and why; a change is announced on ACCOUNT_UPDATES_CHANNEL.
   */
  async setPlan(uid: string, plan: PlanId, change: PlanChangeCause): Promise<PlanChangeResult> {
    const result = await withAccountLock(this.context.db, uid, (trx) => this.setPlanIn(trx, uid, plan, change));
    return { ...result, balance: await this.balance(uid) };
  }

  /**
   * `setPlan` in a transaction holding the uid's account lock, so a billing event's effect (its id, the
   * subscription, the plan, the ledger lines) commits as one.
   */
  async setPlanIn(
    trx: Transaction<Database>,
    uid: string,
    plan: PlanId,
    change: PlanChangeCause,
  ): Promise<{ changed: boolean; from: PlanId }> {
    if ((await this.openIn(trx, uid, null)) === 'closed') throw new AccountClosedError(uid);
    const ts = sql`${this.context.now()}::timestamptz`;
    const rules = this.context.plans[plan];
    const moved = (kind: GenerationKind) =>
      sql`case when o.due then ${rules.allowance[kind]}
        else greatest(${rules.allowance[kind]} - (o.${allowanceColumn(kind)} - o.${tokensColumn(kind)}), 0) end`;
    const { rows } = await sql<{ from_plan: PlanId }>`
      with old as (
        select a.*, p.image_allowance, p.video_allowance, p.speech_allowance,
          a.period_started_at <= ${ts} - p.period as due
        from accounts a join ${planRulesTable(this.context.plans)} on p.plan = a.plan
        where a.uid = ${uid} for update of a
      ), changed as (
        update accounts a set plan = ${plan}, plan_source = ${change.source}, plan_reason = ${change.reason},
          period_started_at = case when o.due then ${ts} else o.period_started_at end,
          ${sql.join(GENERATION_KINDS.map((kind) => sql`${tokensColumn(kind)} = ${moved(kind)}`))}
        from old o where a.uid = o.uid and o.plan <> ${plan}
        returning o.plan as from_plan, o.image_tokens as old_image, o.video_tokens as old_video,
          o.speech_tokens as old_speech, a.image_tokens, a.video_tokens, a.speech_tokens
      ), ledger as (
        ${INSERT_LEDGER_LINES}
        select ${uid}, moves.kind, null, 'plan_change', moves.amount, ${change.reason}, ${ts}
        from changed c cross join lateral (values
          ('image', c.image_tokens - c.old_image),
          ('video', c.video_tokens - c.old_video),
          ('speech', c.speech_tokens - c.old_speech)) as moves(kind, amount)
        where moves.amount <> 0
      ), moved_in_line as (
        update generations g set queue_priority = ${rules.queuePriority}, queue_order = ${NEXT_IN_LINE}
        from changed c where g.uid = ${uid} and g.status = 'queued'
      )
      select from_plan, ${announceAccount(uid)} from changed`.execute(trx);
    if (rows.length === 0) {
      // The same plan, set again: who set it and why are still the latest word.
      await sql`update accounts set plan_source = ${change.source}, plan_reason = ${change.reason}
        where uid = ${uid}`.execute(trx);
    }
    return { changed: rows.length > 0, from: rows[0]?.from_plan ?? plan };
  }

  /**
   * A paid renewal: a new period begins now with the plan's whole allowance (one `period_reset` ledger
   * line per kind that moved, naming `reason`), announced on ACCOUNT_UPDATES_CHANNEL. In a transaction
   * holding the uid's account lock.
   */
  async renewIn(trx: Transaction<Database>, uid: string, reason: string): Promise<void> {
    const ts = sql`${this.context.now()}::timestamptz`;
    await sql`
      with old as (
        select a.*, p.image_allowance, p.video_allowance, p.speech_allowance
        from accounts a join ${planRulesTable(this.context.plans)} on p.plan = a.plan
        where a.uid = ${uid} for update of a
      ), renewed as (
        update accounts a set period_started_at = ${ts},
          ${sql.join(GENERATION_KINDS.map((kind) => sql`${tokensColumn(kind)} = o.${allowanceColumn(kind)}`))}
        from old o where a.uid = o.uid
        returning o.image_tokens as old_image, o.video_tokens as old_video, o.speech_tokens as old_speech,
          a.image_tokens, a.video_tokens, a.speech_tokens
      ), ledger as (
        ${INSERT_LEDGER_LINES}
        select ${uid}, moves.kind, null, 'period_reset', moves.amount, ${reason}, ${ts}
        from renewed r cross join lateral (values
          ('image', r.image_tokens - r.old_image),
          ('video', r.video_tokens - r.old_video),
          ('speech', r.speech_tokens - r.old_speech)) as moves(kind, amount)
        where moves.amount <> 0
      )
      select ${announceAccount(uid)} from renewed`.execute(trx);
  }

  /**
   * The user's balance now. A user with no account yet has Free's allowance, or, within the period of a
   * closed account with the same email, what that one had left; a user whose period is over has the
   * allowance again.
   */
  async balance(uid: string, emailHash: string | null = null): Promise<AccountBalance> {
    const { db } = this.context;
    const account = await db.selectFrom('accounts').selectAll().where('uid', '=', uid).executeTakeFirst();
    const now = this.context.now();
    const plan = account?.plan ?? FIRST_PLAN;
    const rules = this.context.plans[plan];
    const period = periodMs(rules);
    const over = (periodStartedAt: Date) => now.getTime() - periodStartedAt.getTime() >= period;
    const full = (periodStartedAt: Date, inFlight: number): AccountBalance => ({
      plan,
      tokens: { ...rules.allowance },
      allowance: { ...rules.allowance },
      periodStartedAt,
      resetsAt: new Date(periodStartedAt.getTime() + period),
      inFlight,
    });
    if (account === undefined) {
      const trace =
        emailHash === null
          ? undefined
          : await db.selectFrom('account_traces').selectAll().where('email_hash', '=', emailHash).executeTakeFirst();
      if (trace === undefined || over(trace.period_started_at)) return full(now, 0);
      const left = (kind: GenerationKind, spent: number) => Math.max(rules.allowance[kind] - spent, 0);
      return {
        ...full(trace.period_started_at, 0),
        tokens: {
          image: left('image', trace.image_spent),
          video: left('video', trace.video_spent),
          speech: left('speech', trace.speech_spent),
        },
      };
    }
    if (over(account.period_started_at)) return full(now, account.in_flight);
    return {
      ...full(account.period_started_at, account.in_flight),
      tokens: { image: account.image_tokens, video: account.video_tokens, speech: account.speech_tokens },
    };
  }
}
