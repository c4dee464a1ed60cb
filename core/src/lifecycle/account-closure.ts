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
 * counted as it would end now: spent if paid provider work began, else given back.
 */
export class AccountClosure {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { plans?: PlanCatalogue; clock?: () => number } = {},
  ) {}

  async close(uid: string, emailHash: string | null): Promise<ClosedAccount> {
    const plans = this.options.plans ?? DEFAULT_PLAN_RULES;
    const now = new Date((this.options.clock ?? Date.now)());
    return this.db.transaction().execute(async (trx) => {
      const account = await trx
        .selectFrom('accounts')
        .selectAll()
        .where('uid', '=', uid)
        .forUpdate()
        .executeTakeFirst();
      const generations = await trx
        .selectFrom('generations')
        .select(['id', 'kind', 'status', 'artifact_key', 'marked_artifact_key', 'paid_calls'])
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
        const givenBack = (kind: GenerationKind) =>
          generations.filter(
            (generation) =>
              generation.kind === kind &&
              (generation.status === 'queued' || generation.status === 'active') &&
              generation.paid_calls === 0,
          ).length;
        const spent = Object.fromEntries(
          GENERATION_KINDS.map((kind) => [
            kind,
            Math.max(rules.allowance[kind] - account[`${kind}_tokens`] - givenBack(kind), 0),
          ]),
        ) as TokenBalance;
        if (emailHash !== null && GENERATION_KINDS.some((kind) => spent[kind] > 0)) {
          trace = spent;
          await trx
            .insertInto('account_traces')
            .values({
              email_hash: emailHash,
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
      await trx.deleteFrom('accounts').where('uid', '=', uid).execute();
      await sql`select pg_notify(${ACCOUNT_EVENTS_CHANNEL}, ${JSON.stringify({ uid, closed: true })})`.execute(trx);
      return {
        generations: generations.map((generation) => ({
          id: generation.id,
          kind: generation.kind,
          status: generation.status,
          artifactKeys: [generation.artifact_key, generation.marked_artifact_key].filter((key) => key !== null),
        })),
        trace,
      };
    });
  }
}
