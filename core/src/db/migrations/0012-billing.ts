import { sql, type Kysely } from 'kysely';

/**
 * Paid plans (issue 38). Stripe is the system of record for money; these tables keep what the plans
 * follow from it: each account's one Stripe customer, each subscription as last read from Stripe, the
 * webhook events already applied (each recorded in the transaction of its effect, so a replay changes
 * nothing), the trials given (under the email hash closed accounts' traces use, so a closure does not
 * bring a trial back), subscriptions of closed accounts still to cancel at Stripe, and Contact Sales
 * requests. On `accounts`, who set the plan last and why.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_customers')
    .addColumn('uid', 'text', (column) => column.primaryKey())
    .addColumn('customer_id', 'text', (column) => column.notNull().unique())
    // The owner's email hash at checkout: the trial mark is kept under it.
    .addColumn('email_hash', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('billing_subscriptions')
    .addColumn('subscription_id', 'text', (column) => column.primaryKey())
    .addColumn('uid', 'text', (column) => column.notNull())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('price_id', 'text', (column) => column.notNull())
    .addColumn('plan', 'text', (column) => column.notNull().check(sql`plan in ('pro', 'enterprise')`))
    .addColumn('period', 'text', (column) => column.notNull().check(sql`period in ('monthly', 'yearly')`))
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('current_period_start', 'timestamptz', (column) => column.notNull())
    .addColumn('current_period_end', 'timestamptz', (column) => column.notNull())
    .addColumn('cancel_at_period_end', 'boolean', (column) => column.notNull())
    .addColumn('pending_plan', 'text', (column) => column.check(sql`pending_plan in ('free', 'pro', 'enterprise')`))
    .addColumn('past_due_since', 'timestamptz')
    // The billing period whose fresh allowance was given: a renewal counts once per period.
    .addColumn('renewed_period_start', 'timestamptz', (column) => column.notNull())
    .addColumn('recorded_at', 'timestamptz', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('billing_subscriptions_by_uid').on('billing_subscriptions').column('uid').execute();
  await db.schema
    .createTable('billing_events')
    .addColumn('event_id', 'text', (column) => column.primaryKey())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('uid', 'text')
    .addColumn('processed_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('billing_trials')
    .addColumn('email_hash', 'text', (column) => column.primaryKey())
    .addColumn('subscription_id', 'text', (column) => column.notNull())
    .addColumn('started_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('billing_cancellations')
    .addColumn('subscription_id', 'text', (column) => column.primaryKey())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('requested_at', 'timestamptz', (column) => column.notNull())
    .addColumn('canceled_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('billing_cancellations_pending')
    .on('billing_cancellations')
    .column('requested_at')
    .where(sql.ref('canceled_at'), 'is', null)
    .execute();
  // A closed account's customers: their late events cancel what they find instead of changing a plan.
  await db.schema
    .createTable('billing_closed_customers')
    .addColumn('customer_id', 'text', (column) => column.primaryKey())
    .addColumn('closed_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('sales_requests')
    .addColumn('id', 'integer', (column) => column.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('uid', 'text')
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('company', 'text', (column) => column.notNull())
    .addColumn('volume', 'text', (column) => column.notNull())
    .addColumn('message', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('sales_requests_by_uid')
    .on('sales_requests')
    .column('uid')
    .where(sql.ref('uid'), 'is not', null)
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('plan_source', 'text', (column) =>
      column
        .notNull()
        .defaultTo('default')
        .check(sql`plan_source in ('default', 'billing', 'operator')`),
    )
    .addColumn('plan_reason', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('plan_source').dropColumn('plan_reason').execute();
  for (const table of [
    'sales_requests',
    'billing_closed_customers',
    'billing_cancellations',
    'billing_trials',
    'billing_events',
    'billing_subscriptions',
    'billing_customers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
