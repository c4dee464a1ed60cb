import { sql, type RawBuilder } from 'kysely';
import { generationById } from '../reads/generation-by-id';
import { toRecord, type GenerationRecord } from './generation-record';
import type { LifecycleContext } from './lifecycle-context';
import { announce } from './lifecycle-sql';
import { settlementSteps, tokenAtEnd, tokensReturnedAtEnd } from './token-settlement';
import { webhookOutboxStep } from '../webhooks/webhook-outbox';

/**
 * `not-found`: no such generation (or not the caller's). `not-allowed`: its state forbids the transition,
 * and `current` says what it is. `call-limit`: it already made as many paid calls as it may.
 */
export type TransitionOutcome =
  /** `changed`: the transition made a new version (announced); false when it only updated bookkeeping. */
  | { ok: true; generation: GenerationRecord; changed: boolean }
  | { ok: false; reason: 'not-found' | 'not-allowed' | 'call-limit'; current: GenerationRecord | null };

export interface TransitionStep {
  allowedFrom: readonly string[];
  set: RawBuilder<unknown>;
  announce: RawBuilder<unknown>;
  where?: RawBuilder<unknown>;
  owner?: string | undefined;
  /** The ledger's reason: makes the transition an ending. */
  settle?: string;
}

export interface Ending {
  status: 'completed' | 'failed' | 'canceled';
  set: RawBuilder<unknown>;
  reason: string;
  owner?: string;
  /** Images of the set not made (filtered, or failed for good): their tokens come back whatever the ending. */
  notMade?: number;
}

/**
 * A transition that leaves the generation where it ends: frees its in-flight slot and settles its token
 * (tokenAtEnd: spent by a completion, else by the paid calls outstanding; a set's images not made give theirs back).
 */
export function endTransition(
  context: LifecycleContext,
  id: string,
  allowedFrom: readonly ('queued' | 'active')[],
  ending: Ending,
): Promise<TransitionOutcome> {
  const settled = ending.status === 'completed' ? 'completed' : 'unfinished';
  const notMade = ending.notMade ?? 0;
  return runTransition(context, id, {
    allowedFrom,
    owner: ending.owner,
    set: sql`status = ${ending.status}, finished_at = ${context.now()}, ${ending.set},
        token = ${tokenAtEnd('o', settled, notMade)}, tokens_returned = ${tokensReturnedAtEnd('o', settled, notMade)}`,
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
 * `settle` makes it an ending: it frees the in-flight slot, moves the token and writes the webhook events. An
 * ending locks the owner's account row before the generation's (`owner`), the order of the closure and of
 * every charge, so an ending and a closure never wait on each other in a circle, and an ending that waited
 * for a closure finds the account gone and changes nothing. It counts from the account as `owner` locked it,
 * not as the statement's snapshot has it: PostgreSQL checks a new row's constraints before it waits for a
 * concurrent writer, so a count from a snapshot taken before an operator's retry took the slot this ending
 * gives back would go below zero and fail the ending.
 */
export async function runTransition(
  context: LifecycleContext,
  id: string,
  step: TransitionStep,
): Promise<TransitionOutcome> {
  const now = context.now();
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
  // An ending also writes its webhook events (webhook-outbox.ts), committed with it.
  const settlement =
    step.settle === undefined
      ? sql``
      : sql`, ${settlementSteps(context.plans, step.settle, ts)}, ${webhookOutboxStep(context.plans, ts)}`;
  const result = await sql<{ generation: Record<string, unknown> | null; seen: Record<string, unknown> | null }>`
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
        select ${announce('m')} from moved m where m.announced
      )
      select (select row_to_json(m) from moved m) as generation, (select row_to_json(o) from old o) as seen,
        (select count(*) from notified) as notified
    `.execute(context.db);
  const { generation: moved, seen } = result.rows[0]!;
  if (moved !== null) {
    return { ok: true, generation: toRecord(moved), changed: moved.announced === true };
  }
  // A refusal reports the row as it was when it was refused (under the lock), not as a later read finds
  // it: a retry committed in between would make a refused cancel say the generation is queued.
  const current = seen === null ? await generationById(context.db, id) : toRecord(seen);
  if (current === null || (step.owner !== undefined && current.uid !== step.owner)) {
    return { ok: false, reason: 'not-found', current: null };
  }
  return { ok: false, reason: 'not-allowed', current };
}
