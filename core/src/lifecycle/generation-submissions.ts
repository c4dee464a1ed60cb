import { sql } from 'kysely';
import { tokensOfRequest, type GenerationKind, type PlanId } from '@mediagen/shared';
import { prepared } from '../db/database';
import { naturalBatches } from '../natural-batches';
import type { Accounts } from './accounts';
import { toRecord, type GenerationRecord } from './generation-record';
import type { LifecycleContext } from './lifecycle-context';
import { announce, NEXT_IN_LINE } from './lifecycle-sql';
import { accountSeen, chargeSteps, refusalOf, type AccountSeen, type ChargeRefusal } from './token-charge';

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
  /** The submission's W3C traceparent (tracing/spans.ts, currentTraceParent) when it is traced. */
  traceParent?: string | null;
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

interface SubmitRow {
  generation: Record<string, unknown> | null;
  account: AccountSeen | null;
}

const UNIQUE_VIOLATION = '23505';

/** Submissions: a token charged and the generation recorded `queued`, in one statement. */
export class GenerationSubmissions {
  /** Submissions that arrive together are charged together (submitAll). */
  private readonly charge: (input: SubmitInput) => Promise<SubmitRow>;

  constructor(
    private readonly context: LifecycleContext,
    private readonly accounts: Accounts,
  ) {
    this.charge = naturalBatches((inputs) => this.submitAll(inputs));
  }

  /**
   * Charges its tokens (one, or an image set's one per image, together: all or none) and records the generation `queued`, in one statement (shared with other users'
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
        if ((await this.accounts.open(input.uid, input.emailHash ?? null)) === 'closed') return { status: 'closed' };
        continue;
      }
      return refusalOf(account, input.maxInFlight, this.context.plans);
    }
    throw new Error(`could not open an account for ${input.uid}`);
  }

  private async idempotent(
    uid: string,
    { key, bodyHash }: { key: string; bodyHash: string },
  ): Promise<SubmitOutcome | null> {
    const found = await this.context.db
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
    const now = this.context.now();
    const ts = sql`${now}::timestamptz`;
    const submissions = inputs.map((input, ord) => ({
      ord,
      id: input.id,
      uid: input.uid,
      kind: input.kind,
      tokens: tokensOfRequest(input.kind, input.request),
      request: input.request,
      prompt: input.prompt,
      key: input.idempotency?.key ?? null,
      body_hash: input.idempotency?.bodyHash ?? null,
      max_in_flight: input.maxInFlight,
      charge: true,
      email_hash: input.emailHash ?? null,
      trace_parent: input.traceParent ?? null,
    }));
    const uids = inputs.map((input) => input.uid);
    const { rows } = await sql<SubmitRow>`${prepared('submit_generations')}
      with input as (
        select * from json_to_recordset(${JSON.stringify(submissions)}::json) as i(ord int, id text, uid text,
          kind text, tokens int, request jsonb, prompt text, key text, body_hash text, max_in_flight int, charge boolean,
          email_hash text, trace_parent text)
      ), ${chargeSteps({ now, plans: this.context.plans, uids, reason: 'submitted' })}, generation as (
        insert into generations (id, uid, kind, status, version, request, prompt, token, token_count, created_at,
          updated_at, queue_priority, queue_order, trace_parent)
        select c.id, c.uid, c.kind, 'queued', 1, i.request, i.prompt, 'held', c.tokens, ${ts}, ${ts}, c.queue_priority,
          ${NEXT_IN_LINE}, i.trace_parent
        from charged c join input i on i.ord = c.ord
        order by c.ord
        returning *
      ), idempotency as (
        insert into idempotency_keys (uid, key, generation_id, body_hash, created_at)
        select c.uid, i.key, c.id, i.body_hash, ${ts} from charged c join input i on i.ord = c.ord where i.key is not null
      )
      select (select row_to_json(g) from generation g where g.id = i.id) as generation,
        (select ${announce('g')} from generation g where g.id = i.id) as announced,
        ${accountSeen(sql`i.ord`)} as account
      from input i order by i.ord
    `.execute(this.context.db);
    return rows;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === UNIQUE_VIOLATION;
}
