import { sql, type Kysely } from 'kysely';
import {
  DEFAULT_PLAN_RULES,
  GENERATION_KINDS,
  periodMs,
  type GenerationKind,
  type PlanCatalogue,
  type TokenBalance,
} from '@mediagen/shared';
import type { Database } from '../db/schema';
import { closeBillingIn } from '../billing/billing-closure';
import { withAccountLock } from './account-lock';
import type { CompletedOutput } from '../queue/generation-jobs';
import { keysOfOutputs } from './generation-record';
import { tokensReturnedAtEnd } from './token-settlement';

/**
 * Every server LISTENs here too: a closed account's sockets are ended and its ID tokens refused at once,
 * on every instance, not at the next revalidation.
 */
export const ACCOUNT_EVENTS_CHANNEL = 'account_events';

export interface ClosedAccount {
  /** Every generation the account had, for the caller to delete its artifact and its job. */
  generations: { id: string; kind: GenerationKind; status: string; artifactKeys: string[] }[];
  /** What it had spent in the current period, kept under its email's hash; null when nothing was. */
  trace: TokenBalance | null;
}

/**
 * Closing an account: everything of the user goes in one transaction (generations, idempotency keys,
 * ledger lines, the account), but for an anonymous trace: a keyed hash of the email with the current
 * period and what was spent in it, so that signing up again with the same email within the period does
 * not bring the free tokens back (GenerationLifecycle picks the trace up). A generation still in flight is
 * counted as it would end now (tokensReturnedAtEnd): spent if paid provider work began, else given back.
 *
 * Closing wins whatever races it. The transaction holds the uid's account lock (account-lock.ts), under
 * which alone an account row is made, and writes the uid's tombstone (`closed_accounts`), which that
 * making checks: an account opened before the closure is closed with the rest, and none opens after it.
 * It then locks the account row, then the generations: every statement that charges, settles or retries
 * locks the account row first too, so one that began before waits for the closure to commit and then finds
 * the row deleted (READ COMMITTED rereads a row it waited for), and no generation is made or ended behind
 * the closure's back.
 */
export class AccountClosure {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { plans?: PlanCatalogue; clock?: () => number } = {},
  ) {}

  /**
   * `emailHash`: the owner's email as their token has it now; without it (the identity is gone), the one
   * the account was last charged with. Closing a closed account changes nothing.
   */
  async close(uid: string, emailHash: string | null): Promise<ClosedAccount> {
    const plans = this.options.plans ?? DEFAULT_PLAN_RULES;
    const now = new Date((this.options.clock ?? Date.now)());
    return withAccountLock(this.db, uid, async (trx) => {
      const tombstone = await trx
        .insertInto('closed_accounts')
        .values({ uid, closed_at: now })
        .onConflict((conflict) => conflict.column('uid').doNothing())
        .returning('uid')
        .executeTakeFirst();
      // Closed before: nothing of the account can have been made since.
      if (tombstone === undefined) return { generations: [], trace: null };
      const account = await trx
        .selectFrom('accounts')
        .selectAll()
        .where('uid', '=', uid)
        .forUpdate()
        .executeTakeFirst();
      const generations = await trx
        .selectFrom('generations')
        .select(['id', 'kind', 'status', 'artifact_key', 'marked_artifact_key', 'outputs'])
        .select(tokensReturnedAtEnd('generations', 'unfinished').as('tokens_back_if_ended_now'))
        .where('uid', '=', uid)
        .forUpdate()
        .execute();

      let trace: TokenBalance | null = null;
      const rules = account === undefined ? undefined : plans[account.plan];
      const periodCurrent =
        account !== undefined &&
        rules !== undefined &&
        now.getTime() - account.period_started_at.getTime() < periodMs(rules);
      if (account !== undefined && rules !== undefined && periodCurrent) {
        // A generation still in flight counts as if it ended now, by the rule every ending settles with.
        const givenBack = (kind: GenerationKind) =>
          generations
            .filter(
              (generation) =>
                generation.kind === kind && (generation.status === 'queued' || generation.status === 'active'),
            )
            .reduce((sum, generation) => sum + Number(generation.tokens_back_if_ended_now), 0);
        const spent = Object.fromEntries(
          GENERATION_KINDS.map((kind) => [
            kind,
            Math.max(rules.allowance[kind] - account[`${kind}_tokens`] - givenBack(kind), 0),
          ]),
        ) as TokenBalance;
        const traceKey = emailHash ?? account.email_hash;
        if (traceKey !== null && GENERATION_KINDS.some((kind) => spent[kind] > 0)) {
          trace = spent;
          await trx
            .insertInto('account_traces')
            .values({
              email_hash: traceKey,
              period_started_at: account.period_started_at,
              image_spent: spent.image,
              video_spent: spent.video,
              speech_spent: spent.speech,
              closed_at: now,
            })
            .onConflict((conflict) =>
              conflict.column('email_hash').doUpdateSet((eb) => ({
                period_started_at: eb.ref('excluded.period_started_at'),
                image_spent: eb.ref('excluded.image_spent'),
                video_spent: eb.ref('excluded.video_spent'),
                speech_spent: eb.ref('excluded.speech_spent'),
                closed_at: eb.ref('excluded.closed_at'),
              })),
            )
            .execute();
        }
      }

      // Idempotency keys go with their generations (foreign key, on delete cascade).
      await trx.deleteFrom('generations').where('uid', '=', uid).execute();
      await trx.deleteFrom('token_ledger').where('uid', '=', uid).execute();
      // Kept in the day totals by provider (no user there); the per-user days go with the account.
      await trx.deleteFrom('user_spend_daily').where('uid', '=', uid).execute();
      // What the account sent the support form holds its email and its words: it goes with the account.
      await trx.deleteFrom('support_requests').where('uid', '=', uid).execute();
      // Its API keys: revoked or not, nothing of the account may act again.
      await trx.deleteFrom('api_keys').where('uid', '=', uid).execute();
      // Its live subscriptions are canceled at Stripe once this commits (AccountService); the trial mark stays.
      await closeBillingIn(trx, uid, now);
      await trx.deleteFrom('accounts').where('uid', '=', uid).execute();
      await sql`select pg_notify(${ACCOUNT_EVENTS_CHANNEL}, ${JSON.stringify({ uid, closed: true })})`.execute(trx);
      return {
        generations: generations.map((generation) => ({
          id: generation.id,
          kind: generation.kind,
          status: generation.status,
          artifactKeys: [
            ...new Set([
              ...[generation.artifact_key, generation.marked_artifact_key].filter((key) => key !== null),
              ...keysOfOutputs(generation.outputs as CompletedOutput[] | null),
            ]),
          ],
        })),
        trace,
      };
    });
  }

  /** Whether the uid's account was closed (then nothing of it may be made again). */
  async isClosed(uid: string): Promise<boolean> {
    const row = await this.db.selectFrom('closed_accounts').select('uid').where('uid', '=', uid).executeTakeFirst();
    return row !== undefined;
  }

  /** The other accounts charged with the same email hash: earlier accounts of the same email, if any. */
  async sharingEmail(emailHash: string, uid: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .select('uid')
      .where('email_hash', '=', emailHash)
      .where('uid', '<>', uid)
      .execute();
    return rows.map((row) => row.uid);
  }
}
