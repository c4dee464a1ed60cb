import { sql, type Kysely } from 'kysely';

/**
 * Plans that mean something (issue 16): a plan change moves balances (a ledger movement of its own), and
 * a free generation's artifact has a marked copy beside the original, served while its owner is on a plan
 * with the watermark.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_ledger').dropConstraint('token_ledger_movement_check').execute();
  await db.schema
    .alterTable('token_ledger')
    .addCheckConstraint(
      'token_ledger_movement_check',
      sql`movement in ('charge', 'refund', 'spend', 'period_reset', 'plan_change')`,
    )
    .execute();
  await db.schema.alterTable('generations').addColumn('marked_artifact_key', 'text').execute();
  await db.schema
    .alterTable('generations')
    .addCheckConstraint('marked_with_original', sql`marked_artifact_key is null or artifact_key is not null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').dropConstraint('marked_with_original').execute();
  await db.schema.alterTable('generations').dropColumn('marked_artifact_key').execute();
  await db.schema.alterTable('token_ledger').dropConstraint('token_ledger_movement_check').execute();
  await db.schema
    .alterTable('token_ledger')
    .addCheckConstraint('token_ledger_movement_check', sql`movement in ('charge', 'refund', 'spend', 'period_reset')`)
    .execute();
}
