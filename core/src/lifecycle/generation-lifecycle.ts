import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  DEFAULT_PLAN_RULES,
  ERROR_MESSAGES,
  GENERATION_KINDS,
  TOKEN_ENDING_SENTENCES,
  exceedsPlan,
  periodMs,
  type ApiError,
  type GenerationFailure,
  type GenerationKind,
  type GenerationRequest,
  type PlanCatalogue,
  type PlanId,
  type TokenBalance,
} from '@mediagen/shared';
import type { Database } from '../db/schema';
import { GENERATION_EVENTS_CHANNEL, eventPayload } from './generation-events';
import { prepared } from '../db/database';
import { naturalBatches } from '../natural-batches';
import { withAccountLock } from './account-lock';
import { toRecord, type GenerationRecord } from './generation-record';
import { allowanceColumn, planRulesTable, tokensColumn } from './plan-rules-table';
import { accountSeen, chargeSteps, refusalOf, type AccountSeen, type ChargeRefusal } from './token-charge';
import type { CompletedArtifact } from '../queue/generation-jobs';

export interface LifecycleOptions {
  /** Each plan's allowance and period (shared/src/plan-rules.ts; operators configure Pro and Enterprise). */
  plans?: PlanCatalogue;
  /** Provider calls that may cost money one generation may make; a retry past it fails the job. */
  maxPaidCalls?: number;
  clock?: () => number;
}

export interface SubmitInput {
  id: string;
  uid: string;
  kind: GenerationKind;
  /** The validated request without its kind. */
  request: Record<string, unknown>;
  prompt: string;
  /** Queued + active generations the user may hold; this one is refused past it. */
  maxInFlight: number;
  idempotency?: { key: string; bodyHash: string };
  /** Keyed hash of the owner's email (account-traces.ts): a first submission picks up a closed account's trace. */
  emailHash?: string | null;
}

export type SubmitOutcome =
  /** `plan`: the owner's plan as the charge saw it (it decides the job's priority). */
  | { status: 'accepted'; generation: GenerationRecord; plan: PlanId }
  /** The Idempotency-Key already names a generation made from the same body. */
  | { status: 'replayed'; generation: GenerationRecord }
  | { status: 'idempotency-conflict' }
  /** The account was closed: nothing of it is made again. */
  | { status: 'closed' }
  | ChargeRefusal;

/** An operator's retry of a failed generation: charged (unless free) by the same rules as a submission. */
export type RetryOutcome =
  | { ok: true; generation: GenerationRecord; plan: PlanId }
  | { ok: false; reason: 'not-found' | 'not-allowed'; current: GenerationRecord | null }
  /** The request goes beyond what its owner's plan allows now (`message` says how). */
  | { ok: false; reason: 'beyond-plan'; message: string; current: GenerationRecord }
  | { ok: false; reason: 'refused'; refusal: ChargeRefusal; current: GenerationRecord };

/**
 * `not-found`: no such generation (or not the caller's). `not-allowed`: its state forbids the transition,
 * and `current` says what it is. `call-limit`: it already made as many paid calls as it may.
 */
export type TransitionOutcome =
  /** `changed`: the transition made a new version (announced); false when it only updated bookkeeping. */
  | { ok: true; generation: GenerationRecord; changed: boolean }
  | { ok: false; reason: 'not-found' | 'not-allowed' | 'call-limit'; current: GenerationRecord | null };

export interface AccountBalance {
  plan: PlanId;
  tokens: TokenBalance;
  allowance: TokenBalance;
  periodStartedAt: Date;
  /** When the balances refill to the allowance (the period's end). */
  resetsAt: Date;
  inFlight: number;
}

/** Who ended a generation early, for the ledger. */
export type CancelActor = { by: 'owner'; uid: string } | { by: 'operator'; reason: string };

/** setPlan on an account that was closed: a closed account is never made again. */
export class AccountClosedError extends Error {
  override readonly name = 'AccountClosedError';

  constructor(readonly uid: string) {
    super(`the account of ${uid} was closed`);
  }
}

const UNIQUE_VIOLATION = '23505';
/** Accounts open on Free (spec §9); operators move them to another plan (setPlan). */
const FIRST_PLAN: PlanId = 'free';
/** A generation (re)joining its queue's level goes last of it, as BullMQ's own counter orders jobs. */
const NEXT_IN_LINE = sql<string>`nextval('generations_queue_order')`;

/**
 * The only code that changes a generation or a balance (docs/ARCHITECTURE.md, "A generation's life"). Each
 * transition is one statement: a compare-and-set on the generation's current state (a transition its state
 * does not allow changes nothing and says so), the token moved in the same statement, a ledger line for
 * every token movement, and the new state announced on GENERATION_EVENTS_CHANNEL, delivered at commit.
 *
 * Token rules, enforced here and nowhere else:
 * - charged at submit (the balance refills to the plan's allowance once the plan's period, 30 days or
 *   Enterprise's one day, has passed since the period began; a balance never goes below 0 or above the
 *   allowance); a plan change keeps what the period has spent and moves the balance to the new allowance;
 * - given back when the generation fails or is canceled while no provider call that may cost money is
 *   outstanding (`paid_calls` = 0: none was made, or each was answered with a refusal before work);
 * - spent once a provider did, or may have done, paid work: completion, and a failure, cancel or drain
 *   after a task id, an image, audio, a content refusal or a timed-out request came back;
 * - `completed` and `canceled` exclude each other: the first to commit wins.
 *
 * Closing wins (account-closure.ts): an account row is made only under the uid's account lock and never
 * for a closed uid; every statement that moves tokens locks the owner's account row before the
 * generation's, as the closure does, so a statement racing the closure waits for it and then finds
 * nothing to change, and none waits on the closure in a circle.
 */
export class GenerationLifecycle {
  private readonly plans: PlanCatalogue;
  private readonly maxPaidCalls: number;
  private readonly clock: () => number;
  /** Submissions that arrive together are charged together (submitAll). */
  private readonly charge: (input: SubmitInput) => Promise<SubmitRow>;

  constructor(
    private readonly db: Kysely<Database>,
    options: LifecycleOptions = {},
  ) {
    this.plans = options.plans ?? DEFAULT_PLAN_RULES;
    this.maxPaidCalls = options.maxPaidCalls ?? 2;
    this.clock = options.clock ?? Date.now;
    this.charge = naturalBatches((inputs) => this.submitAll(inputs));
  }

  private now(): Date {
    return new Date(this.clock());
  }

  /**
   * Charges one token and records the generation `queued`, in one statement (shared with other users'
   * submissions that arrive at the same moment), so two submissions racing for a user's last token (or
   * last in-flight slot) get exactly one acceptance. The account row is made on a user's first submission.
   */
  async submit(input: SubmitInput): Promise<SubmitOutcome> {
    if (input.idempotency !== undefined) {
      const existing = await this.idempotent(input.uid, input.idempotency);
      if (existing !== null) return existing;
    }
    for (let attempt = 0; attempt < 3; attempt += 1) {
      let row: SubmitRow;
      try {
        row = await this.charge(input);
      } catch (error) {
        // The same key, submitted at the same moment by another request: that one made the generation.
        if (isUniqueViolation(error) && input.idempotency !== undefined) {
          const existing = await this.idempotent(input.uid, input.idempotency);
          if (existing !== null) return existing;
        }
        throw error;
      }
      if (row.generation) {
        // Announced at the statement's commit, so before the caller enqueues it: no worker's update can
        // overtake its `queued`.
        return { status: 'accepted', generation: toRecord(row.generation), plan: row.account!.plan };
      }
      const { account } = row;
      if (!account) {
        // No account: none yet, or closed while this waited for its row (the closure deletes it).
        if ((await this.openAccount(input.uid, input.emailHash ?? null)) === 'closed') return { status: 'closed' };
        continue;
      }
      return refusalOf(account, input.maxInFlight, this.plans);
    }
    throw new Error(`could not open an account for ${input.uid}`);
  }

  private async idempotent(
    uid: string,
    { key, bodyHash }: { key: string; bodyHash: string },
  ): Promise<SubmitOutcome | null> {
    const found = await this.db
      .selectFrom('idempotency_keys')
      .innerJoin('generations', 'generations.id', 'idempotency_keys.generation_id')
      .selectAll('generations')
      .select('idempotency_keys.body_hash')
      .where('idempotency_keys.uid', '=', uid)
      .where('idempotency_keys.key', '=', key)
      .executeTakeFirst();
    if (found === undefined) return null;
    if (found.body_hash !== bodyHash) return { status: 'idempotency-conflict' };
    return { status: 'replayed', generation: toRecord(found) };
  }

  /**
   * Makes a user's account on their first submission. Within the period of a closed account with the same
   * email, it starts where that one stopped (its period and what it had spent), and the trace is used up.
   * Under the uid's account lock, so it happens wholly before or after a closure of the same uid: after
   * one, the tombstone is seen and nothing is made (`closed`), and the trace stays for the next account.
   */
  private async openAccount(uid: string, emailHash: string | null): Promise<'open' | 'closed'> {
    const now = this.now();
    const ts = sql`${now}::timestamptz`;
    const rules = this.plans[FIRST_PLAN];
    const left = (kind: GenerationKind) =>
      sql`greatest(${rules.allowance[kind]} - coalesce(t.${sql.ref(`${kind}_spent`)}, 0), 0)`;
    return withAccountLock(this.db, uid, async (trx) => {
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
    });
  }

  /**
   * Runs submissions gathered by `charge` in as few statements as it can: each statement takes at most one
   * submission per user (two of one user's would update the same account row twice), so a user's second
   * one goes in the next statement, after the first has been charged. Should a statement fail, its
   * submissions run one by one, so the error belongs to the one that caused it alone.
   */
  private async submitAll(inputs: readonly SubmitInput[]): Promise<(SubmitRow | Error)[]> {
    const results: (SubmitRow | Error)[] = new Array(inputs.length);
    let waiting = inputs.map((input, index) => ({ input, index }));
    while (waiting.length > 0) {
      const users = new Set<string>();
      const round: typeof waiting = [];
      const later: typeof waiting = [];
      for (const entry of waiting) {
        (users.has(entry.input.uid) ? later : round).push(entry);
        users.add(entry.input.uid);
      }
      waiting = later;
      try {
        const rows = await this.submitStatement(round.map(({ input }) => input));
        round.forEach(({ index }, position) => (results[index] = rows[position]!));
      } catch (error) {
        if (round.length === 1) {
          results[round[0]!.index] = asError(error);
          continue;
        }
        for (const { input, index } of round) {
          results[index] = await this.submitStatement([input]).then((rows) => rows[0]!, asError);
        }
      }
    }
    return results;
  }

  /** One statement for submissions of distinct users: a row per submission, in order. */
  private async submitStatement(inputs: readonly SubmitInput[]): Promise<SubmitRow[]> {
    const now = this.now();
    const ts = sql`${now}::timestamptz`;
    const submissions = inputs.map((input, ord) => ({
      ord,
      id: input.id,
      uid: input.uid,
      kind: input.kind,
      request: input.request,
      prompt: input.prompt,
      key: input.idempotency?.key ?? null,
      body_hash: input.idempotency?.bodyHash ?? null,
      max_in_flight: input.maxInFlight,
      charge: true,
      email_hash: input.emailHash ?? null,
    }));
    const uids = inputs.map((input) => input.uid);
    const { rows } = await sql<SubmitRow>`${prepared('submit_generations')}
      with input as (
        select * from json_to_recordset(${JSON.stringify(submissions)}::json) as i(ord int, id text, uid text,
          kind text, request jsonb, prompt text, key text, body_hash text, max_in_flight int, charge boolean,
          email_hash text)
      ), ${chargeSteps({ now, plans: this.plans, uids, reason: 'submitted' })}, generation as (
        insert into generations (id, uid, kind, status, version, request, prompt, token, created_at, updated_at,
          queue_priority, queue_order)
        select c.id, c.uid, c.kind, 'queued', 1, i.request, i.prompt, 'held', ${ts}, ${ts}, c.queue_priority, ${NEXT_IN_LINE}
        from charged c join input i on i.ord = c.ord
        order by c.ord
        returning *
      ), idempotency as (
        insert into idempotency_keys (uid, key, generation_id, body_hash, created_at)
        select c.uid, i.key, c.id, i.body_hash, ${ts} from charged c join input i on i.ord = c.ord where i.key is not null
      )
      select (select row_to_json(g) from generation g where g.id = i.id) as generation,
        (select pg_notify(${GENERATION_EVENTS_CHANNEL}, ${eventPayload('g')}) from generation g where g.id = i.id) as announced,
        ${accountSeen(sql`i.ord`)} as account
      from input i order by i.ord
    `.execute(this.db);
    return rows;
  }

  /**
   * A worker takes the generation: `queued` → `active`. An `active` one is taken again without a new
   * version (a retry, a video poll, or a takeover after a worker crashed, with no second charge); anything
   * else (canceled, ended) tells the worker to let go.
   */
  start(id: string): Promise<TransitionOutcome> {
    return this.transition(id, {
      allowedFrom: ['queued', 'active'],
      set: sql`status = 'active', started_at = coalesce(o.started_at, ${this.now()})`,
      announce: sql`o.status = 'queued'`,
    });
  }

  /**
   * `start` and `providerStarted` in one commit, for a run that opens with its paid provider request (an
   * image, speech): one transaction and one announcement fewer per generation. Refused with `call-limit`
   * as `providerStarted` is, and then nothing changed: the run starts without it, and its call is refused.
   */
  async startWithPaidCall(id: string): Promise<TransitionOutcome> {
    const now = this.now();
    const outcome = await this.transition(id, {
      allowedFrom: ['queued', 'active'],
      where: sql`o.paid_calls < ${this.maxPaidCalls}`,
      set: sql`status = 'active', started_at = coalesce(o.started_at, ${now}), paid_calls = o.paid_calls + 1,
        provider_started_at = coalesce(o.provider_started_at, ${now})`,
      announce: sql`(o.status = 'queued' or o.provider_started_at is null)`,
    });
    if (!outcome.ok && (outcome.current?.status === 'queued' || outcome.current?.status === 'active')) {
      return { ...outcome, reason: 'call-limit' };
    }
    return outcome;
  }

  /**
   * Committed before every provider request that may cost money (a video start can take a minute; a
   * cancel during it must already know the token is at stake). Refused once the generation has made
   * `maxPaidCalls` such calls, or when it is no longer active.
   */
  async providerStarted(id: string): Promise<TransitionOutcome> {
    const outcome = await this.transition(id, {
      allowedFrom: ['active'],
      where: sql`o.paid_calls < ${this.maxPaidCalls}`,
      set: sql`paid_calls = o.paid_calls + 1, provider_started_at = coalesce(o.provider_started_at, ${this.now()})`,
      announce: sql`o.provider_started_at is null`,
    });
    if (!outcome.ok && outcome.current?.status === 'active') return { ...outcome, reason: 'call-limit' };
    return outcome;
  }

  /**
   * A paid request that was counted cost nothing: the provider refused it before doing any work (4xx,
   * 5xx, 429, a failed connection), or the run ended before sending it. It no longer keeps the token at
   * stake.
   */
  providerCallRefused(id: string): Promise<TransitionOutcome> {
    return this.transition(id, {
      allowedFrom: ['active'],
      where: sql`o.paid_calls > 0`,
      set: sql`paid_calls = o.paid_calls - 1`,
      announce: sql`false`,
    });
  }

  /** Keeps the provider's task id, so a takeover or the reconciler resumes the same paid task. */
  recordProviderTask(id: string, taskId: string): Promise<TransitionOutcome> {
    return this.transition(id, {
      allowedFrom: ['active'],
      set: sql`provider_task_id = ${taskId}`,
      announce: sql`false`,
    });
  }

  /** `active` → `completed` with its artifact; refused when a cancel committed first. */
  complete(id: string, artifact: CompletedArtifact): Promise<TransitionOutcome> {
    return this.end(id, ['active'], {
      status: 'completed',
      set: sql`artifact_key = ${artifact.key}, artifact_mime = ${artifact.mimeType}, artifact_bytes = ${artifact.bytes},
        marked_artifact_key = ${artifact.markedKey ?? null}`,
      settle: sql`'spent'`,
      reason: 'completed',
    });
  }

  /**
   * `queued` | `active` → `failed`: the token comes back unless paid work may have been done. A failure
   * that `tellsToken` ends its message with what became of the token, decided in the same statement; its
   * `providerError` is kept for operators, apart from what the creator reads.
   */
  fail(id: string, failure: GenerationFailure, reason = 'failed'): Promise<TransitionOutcome> {
    const message = failure.tellsToken
      ? sql`${failure.message + ' '} || ${tokenEndingSentence(sql`case when o.token = 'held' then ${SETTLE_BY_PAID_CALLS} else o.token end`)}`
      : sql`${failure.message}`;
    return this.end(id, ['queued', 'active'], {
      status: 'failed',
      set: sql`error_code = ${failure.code}, error_message = ${message},
        provider_error = ${failure.providerError ?? null}`,
      settle: SETTLE_BY_PAID_CALLS,
      reason,
    });
  }

  /**
   * `queued` → `failed`, for a generation whose work could not be enqueued: refused once a worker has
   * taken it (then the work did reach the queue, and goes on).
   */
  notEnqueued(id: string, error: ApiError): Promise<TransitionOutcome> {
    return this.end(id, ['queued'], {
      status: 'failed',
      set: sql`error_code = ${error.code}, error_message = ${error.message}`,
      settle: SETTLE_BY_PAID_CALLS,
      reason: 'not enqueued',
    });
  }

  /** `queued` | `active` → `canceled`, by its owner or an operator; the token as for a failure. */
  cancel(id: string, actor: CancelActor): Promise<TransitionOutcome> {
    return this.end(id, ['queued', 'active'], {
      status: 'canceled',
      set: sql`error_code = 'CANCELED', error_message = ${ERROR_MESSAGES.CANCELED}`,
      settle: SETTLE_BY_PAID_CALLS,
      reason: actor.by === 'owner' ? 'canceled by its owner' : `canceled by an operator: ${actor.reason}`,
      ...(actor.by === 'owner' ? { owner: actor.uid } : {}),
    });
  }

  /** Ends a generation whose work is gone or overdue (the reconciler), as a failure. */
  expire(id: string, error: GenerationFailure): Promise<TransitionOutcome> {
    return this.fail(id, error, 'expired');
  }

  /**
   * An operator puts a failed generation back in the queue, by a submission's rules: the owner's plan must
   * allow its request now, and the charge is a submission's (the balance refills first once the period is
   * over, then the in-flight cap, the daily spend cap, a token left). `charge: false` runs it on the house:
   * an in-flight slot but no token, and its end moves none. Its place in line is last of its plan's level.
   */
  async retry(id: string, { charge, maxInFlight }: { charge: boolean; maxInFlight: number }): Promise<RetryOutcome> {
    return this.db.transaction().execute(async (trx): Promise<RetryOutcome> => {
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
      const beyond = exceedsPlan(request, account.plan, this.plans[account.plan]);
      if (beyond !== null) return { ok: false, reason: 'beyond-plan', message: beyond, current };

      const now = this.now();
      const input = [{ ord: 0, id, uid: account.uid, kind: current.kind, max_in_flight: maxInFlight, charge }];
      const { rows } = await sql<{ generation: Record<string, unknown> | null; account: AccountSeen | null }>`
        with input as (
          select *, null::text as email_hash from json_to_recordset(${JSON.stringify(input)}::json)
            as i(ord int, id text, uid text, kind text, max_in_flight int, charge boolean)
        ), ${chargeSteps({ now, plans: this.plans, uids: [account.uid], reason: 'retried by an operator' })}, moved as (
          update generations g set status = 'queued', version = g.version + 1, updated_at = ${now},
            token = case when c.charge then 'held' else 'waived' end, paid_calls = 0, error_code = null,
            error_message = null, provider_error = null, started_at = null, provider_started_at = null, provider_task_id = null,
            finished_at = null, queue_priority = c.queue_priority, queue_order = ${NEXT_IN_LINE}
          from charged c where g.id = c.id
          returning g.*
        )
        select (select row_to_json(m) from moved m) as generation,
          (select pg_notify(${GENERATION_EVENTS_CHANNEL}, ${eventPayload('m')}) from moved m) as announced,
          ${accountSeen(sql`0`)} as account`.execute(trx);
      const { generation, account: seen } = rows[0]!;
      if (generation !== null) return { ok: true, generation: toRecord(generation), plan: account.plan };
      return { ok: false, reason: 'refused', refusal: refusalOf(seen!, maxInFlight, this.plans), current };
    });
  }

  async find(id: string): Promise<GenerationRecord | null> {
    const row = await this.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toRecord(row);
  }

  /**
   * The user's balance now. A user with no account yet has Free's allowance, or, within the period of a
   * closed account with the same email, what that one had left; a user whose period is over has the
   * allowance again.
   */
  async balance(uid: string, emailHash: string | null = null): Promise<AccountBalance> {
    const account = await this.db.selectFrom('accounts').selectAll().where('uid', '=', uid).executeTakeFirst();
    const now = this.now();
    const plan = account?.plan ?? FIRST_PLAN;
    const rules = this.plans[plan];
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
          : await this.db
              .selectFrom('account_traces')
              .selectAll()
              .where('email_hash', '=', emailHash)
              .executeTakeFirst();
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

  /** The user's generations still waiting for a worker, in the order they wait in. */
  async queuedOf(uid: string): Promise<{ id: string; kind: GenerationKind }[]> {
    return this.db
      .selectFrom('generations')
      .select(['id', 'kind'])
      .where('uid', '=', uid)
      .where('status', '=', 'queued')
      .orderBy('queue_priority')
      .orderBy('queue_order')
      .execute();
  }

  /**
   * A waiting generation's job was given `priority` (the priority aging moved it up): the record's line
   * follows, last of that level as in BullMQ. False when it no longer waits.
   */
  async moveInLine(id: string, priority: number): Promise<boolean> {
    const { numUpdatedRows } = await this.db
      .updateTable('generations')
      .set({ queue_priority: priority, queue_order: NEXT_IN_LINE })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return numUpdatedRows > 0n;
  }

  /** The user's plan (Free for a user with no account yet). */
  async planOf(uid: string): Promise<PlanId> {
    const row = await this.db.selectFrom('accounts').select('plan').where('uid', '=', uid).executeTakeFirst();
    return row?.plan ?? FIRST_PLAN;
  }

  /**
   * Moves a user to another plan, at once. What the current period has spent stays spent: each balance
   * becomes the new allowance less that (never below 0), or the whole new allowance when the old period
   * was already over; the period itself goes on. One ledger line per kind whose balance moved. Generations
   * still waiting join the new plan's priority level, last of it (as BullMQ moves their jobs).
   */
  async setPlan(
    uid: string,
    plan: PlanId,
    reason: string,
  ): Promise<{ changed: boolean; from: PlanId; balance: AccountBalance }> {
    if ((await this.openAccount(uid, null)) === 'closed') throw new AccountClosedError(uid);
    const ts = sql`${this.now()}::timestamptz`;
    const rules = this.plans[plan];
    const moved = (kind: GenerationKind) =>
      sql`case when o.due then ${rules.allowance[kind]}
        else greatest(${rules.allowance[kind]} - (o.${allowanceColumn(kind)} - o.${tokensColumn(kind)}), 0) end`;
    const { rows } = await sql<{ from_plan: PlanId }>`
      with old as (
        select a.*, p.image_allowance, p.video_allowance, p.speech_allowance,
          a.period_started_at <= ${ts} - p.period as due
        from accounts a join ${planRulesTable(this.plans)} on p.plan = a.plan
        where a.uid = ${uid} for update of a
      ), changed as (
        update accounts a set plan = ${plan},
          period_started_at = case when o.due then ${ts} else o.period_started_at end,
          ${sql.join(GENERATION_KINDS.map((kind) => sql`${tokensColumn(kind)} = ${moved(kind)}`))}
        from old o where a.uid = o.uid and o.plan <> ${plan}
        returning o.plan as from_plan, o.image_tokens as old_image, o.video_tokens as old_video,
          o.speech_tokens as old_speech, a.image_tokens, a.video_tokens, a.speech_tokens
      ), ledger as (
        insert into token_ledger (uid, kind, generation_id, movement, amount, reason, created_at)
        select ${uid}, moves.kind, null, 'plan_change', moves.amount, ${reason}, ${ts}
        from changed c cross join lateral (values
          ('image', c.image_tokens - c.old_image),
          ('video', c.video_tokens - c.old_video),
          ('speech', c.speech_tokens - c.old_speech)) as moves(kind, amount)
        where moves.amount <> 0
      ), moved_in_line as (
        update generations g set queue_priority = ${rules.queuePriority}, queue_order = ${NEXT_IN_LINE}
        from changed c where g.uid = ${uid} and g.status = 'queued'
      )
      select from_plan from changed`.execute(this.db);
    const from = rows[0]?.from_plan ?? plan;
    return { changed: rows.length > 0, from, balance: await this.balance(uid) };
  }

  /**
   * Deletes one of the owner's generations. One still queued or running is canceled first, by the same
   * rules as any cancel. Its last announcement says it was removed; the caller deletes its artifact
   * (returned) once this has committed, so a link to it stops working at once.
   */
  async remove(id: string, uid: string): Promise<{ ok: true; removed: GenerationRecord } | { ok: false }> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const current = await this.find(id);
      if (current === null || current.uid !== uid) return { ok: false };
      if (current.status === 'queued' || current.status === 'active') {
        await this.cancel(id, { by: 'owner', uid });
        continue;
      }
      const result = await sql<Record<string, unknown>>`
        delete from generations g
        where g.id = ${id} and g.uid = ${uid} and g.status not in ('queued', 'active')
        returning g.*, pg_notify(${GENERATION_EVENTS_CHANNEL}, ${eventPayload('g', true)}) as notified`.execute(
        this.db,
      );
      const removed = result.rows[0];
      if (removed !== undefined) return { ok: true, removed: toRecord(removed) };
    }
    return { ok: false };
  }

  /**
   * Retention: the artifacts of completed generations created before their plan's cutoff are let go, at
   * most `limit` at a time, oldest first. Each record stays, now saying when its result expired (a new
   * version, announced); the caller deletes the returned files after this has committed.
   */
  async expireArtifacts(
    cutoffs: Partial<Record<PlanId, Date>>,
    limit: number,
  ): Promise<{ id: string; artifactKeys: string[] }[]> {
    const plans = Object.entries(cutoffs).filter((entry): entry is [PlanId, Date] => entry[1] !== undefined);
    if (plans.length === 0) return [];
    const now = this.now();
    const result = await sql<{ id: string; artifact_key: string; marked_artifact_key: string | null }>`
      with due as (
        select g.id, g.artifact_key, g.marked_artifact_key from generations g join accounts a on a.uid = g.uid
        where g.artifact_key is not null and (${sql.join(
          plans.map(([plan, cutoff]) => sql`(a.plan = ${plan} and g.created_at < ${cutoff})`),
          sql` or `,
        )})
        order by g.created_at limit ${limit}
        for update of g skip locked
      ), expired as (
        update generations g set artifact_key = null, artifact_mime = null, artifact_bytes = null,
          marked_artifact_key = null, artifact_expired_at = ${now}, version = g.version + 1, updated_at = ${now}
        from due d where g.id = d.id
        returning g.*, d.artifact_key as old_key, d.marked_artifact_key as old_marked_key
      )
      select e.id, e.old_key as artifact_key, e.old_marked_key as marked_artifact_key, pg_notify(${GENERATION_EVENTS_CHANNEL}, ${eventPayload('e')})
      from expired e`.execute(this.db);
    return result.rows.map((row) => ({
      id: row.id,
      artifactKeys: row.marked_artifact_key === null ? [row.artifact_key] : [row.artifact_key, row.marked_artifact_key],
    }));
  }

  /** A transition that leaves the generation where it ends: frees its in-flight slot and settles its token. */
  private end(
    id: string,
    allowedFrom: readonly ('queued' | 'active')[],
    ending: {
      status: 'completed' | 'failed' | 'canceled';
      set: RawBuilder<unknown>;
      settle: RawBuilder<unknown>;
      reason: string;
      owner?: string;
    },
  ): Promise<TransitionOutcome> {
    return this.transition(id, {
      allowedFrom,
      owner: ending.owner,
      set: sql`status = ${ending.status}, finished_at = ${this.now()}, ${ending.set},
        token = case when o.token = 'held' then ${ending.settle} else o.token end`,
      announce: sql`true`,
      settle: ending.reason,
    });
  }

  /**
   * One compare-and-set on the generation. The row is locked first (`old`, read as it is once the lock is
   * held, so of two racing transitions the second sees what the first left behind) and the update applies
   * only from `allowedFrom` (and `where`); `set`, `where` and `announce` read the old row as `o`.
   * `announce` says whether this is a new version (announced).
   *
   * `settle` makes it an ending: it frees the in-flight slot and moves the token. An ending locks the
   * owner's account row before the generation's (`owner`), the order of the closure and of every charge,
   * so an ending and a closure never wait on each other in a circle, and an ending that waited for a
   * closure finds the account gone and changes nothing. It counts from the account as `owner` locked it,
   * not as the statement's snapshot has it: PostgreSQL checks a new row's constraints before it waits for
   * a concurrent writer, so a count from a snapshot taken before an operator's retry took the slot this
   * ending gives back would go below zero and fail the ending.
   */
  private async transition(
    id: string,
    step: {
      allowedFrom: readonly string[];
      set: RawBuilder<unknown>;
      announce: RawBuilder<unknown>;
      where?: RawBuilder<unknown>;
      owner?: string | undefined;
      settle?: string;
    },
  ): Promise<TransitionOutcome> {
    const now = this.now();
    const ts = sql`${now}::timestamptz`;
    const locked =
      step.settle === undefined
        ? sql`old as (
            select * from generations where id = ${id} for update
          )`
        : sql`owner as materialized (
            select a.uid, a.plan, a.in_flight, a.image_tokens, a.video_tokens, a.speech_tokens from accounts a
            where a.uid = (select g.uid from generations g where g.id = ${id})
            for update
          ), old as (
            select g.* from generations g join owner w on w.uid = g.uid where g.id = ${id} for update of g
          )`;
    const settlement =
      step.settle === undefined
        ? sql``
        : sql`, account as (
            update accounts a set in_flight = w.in_flight - 1,
              ${sql.join(
                GENERATION_KINDS.map(
                  (kind) =>
                    sql`${tokensColumn(kind)} = case when m.kind = ${kind} and m.token = 'refunded'
                      then least(w.${tokensColumn(kind)} + 1, p.${allowanceColumn(kind)}) else w.${tokensColumn(kind)} end`,
                ),
              )}
            from moved m, owner w, ${planRulesTable(this.plans)}
            where a.uid = m.uid and w.uid = m.uid and p.plan = w.plan
          ), ledger as (
            insert into token_ledger (uid, kind, generation_id, movement, amount, reason, created_at)
            select m.uid, m.kind, m.id, case when m.token = 'refunded' then 'refund' else 'spend' end,
              case when m.token = 'refunded' then 1 else 0 end, ${step.settle}, ${ts}
            from moved m where m.token in ('refunded', 'spent')
          )`;
    const result = await sql<{ generation: Record<string, unknown> }>`
      with ${locked}, moved as (
        update generations g set ${step.set},
          version = case when ${step.announce} then o.version + 1 else o.version end,
          updated_at = case when ${step.announce} then ${ts} else o.updated_at end
        from old o
        where g.id = o.id
          and o.status in (${sql.join(step.allowedFrom.map((status) => sql.lit(status)))})
          ${step.where === undefined ? sql`` : sql`and ${step.where}`}
          ${step.owner === undefined ? sql`` : sql`and o.uid = ${step.owner}`}
        returning g.*, (${step.announce}) as announced
      )${settlement}, notified as (
        select pg_notify(${GENERATION_EVENTS_CHANNEL}, ${eventPayload('m')}) from moved m where m.announced
      )
      select row_to_json(m) as generation, (select count(*) from notified) as notified from moved m
    `.execute(this.db);
    const moved = result.rows[0];
    if (moved !== undefined) {
      return { ok: true, generation: toRecord(moved.generation), changed: moved.generation.announced === true };
    }
    const current = await this.find(id);
    if (current === null || (step.owner !== undefined && current.uid !== step.owner)) {
      return { ok: false, reason: 'not-found', current: null };
    }
    return { ok: false, reason: 'not-allowed', current };
  }
}

/** SQL: the token a held generation's ending settles on, read from its old row `o`. */
const SETTLE_BY_PAID_CALLS = sql`case when o.paid_calls = 0 then 'refunded' else 'spent' end`;

/** SQL: the creator's sentence for the token state `token` leaves (TOKEN_ENDING_SENTENCES). */
function tokenEndingSentence(token: RawBuilder<unknown>): RawBuilder<string> {
  const cases = Object.entries(TOKEN_ENDING_SENTENCES).map(([state, sentence]) => sql`when ${state} then ${sentence}`);
  return sql<string>`(case ${token} ${sql.join(cases, sql` `)} else '' end)`;
}

interface SubmitRow {
  generation: Record<string, unknown> | null;
  account: AccountSeen | null;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === UNIQUE_VIOLATION;
}
