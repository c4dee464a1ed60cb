import { sql, type Kysely } from 'kysely';

/**
 * Provider spend (issue 17): each generation's estimated cost, day totals by provider, kind and plan (what
 * budgets and the spend report read), day totals per user (the per-user daily cap), and the budgets
 * operators set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('generations')
    .addColumn('cost_usd', sql`numeric(12, 6)`)
    .execute();
  await db.schema
    .createTable('provider_spend_daily')
    .addColumn('day', 'date', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('plan', 'text', (column) => column.notNull())
    .addColumn('usd', sql`numeric(14, 6)`, (column) => column.notNull())
    .addColumn('calls', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('provider_spend_daily_pkey', ['day', 'provider', 'kind', 'plan'])
    .execute();
  await db.schema
    .createTable('user_spend_daily')
    .addColumn('uid', 'text', (column) => column.notNull())
    .addColumn('day', 'date', (column) => column.notNull())
    .addColumn('usd', sql`numeric(14, 6)`, (column) => column.notNull())
    .addPrimaryKeyConstraint('user_spend_daily_pkey', ['uid', 'day'])
    .execute();
  await db.schema
    .createTable('spend_budgets')
    // 'global' or a provider's name.
    .addColumn('scope', 'text', (column) => column.primaryKey())
    .addColumn('daily_usd', sql`numeric(14, 2)`, (column) => column.notNull().check(sql`daily_usd >= 0`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('spend_budgets').execute();
  await db.schema.dropTable('user_spend_daily').execute();
  await db.schema.dropTable('provider_spend_daily').execute();
  await db.schema.alterTable('generations').dropColumn('cost_usd').execute();
}
