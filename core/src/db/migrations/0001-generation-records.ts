import { sql, type Kysely } from 'kysely';

/**
 * The record: accounts with their balances, generations, the token ledger and idempotency keys. Checks
 * keep impossible states out whatever code runs: no negative balance or in-flight count, no unknown
 * status, kind or token state.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('uid', 'text', (column) => column.primaryKey())
    .addColumn('period_started_at', 'timestamptz', (column) => column.notNull())
    .addColumn('image_tokens', 'integer', (column) => column.notNull().check(sql`image_tokens >= 0`))
    .addColumn('video_tokens', 'integer', (column) => column.notNull().check(sql`video_tokens >= 0`))
    .addColumn('speech_tokens', 'integer', (column) => column.notNull().check(sql`speech_tokens >= 0`))
    .addColumn('in_flight', 'integer', (column) =>
      column
        .notNull()
        .defaultTo(0)
        .check(sql`in_flight >= 0`),
    )
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('generations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('uid', 'text', (column) => column.notNull().references('accounts.uid').onDelete('cascade'))
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('image', 'video', 'speech')`))
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('queued', 'active', 'completed', 'failed', 'canceled')`),
    )
    .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('request', 'jsonb', (column) => column.notNull())
    .addColumn('prompt', 'text', (column) => column.notNull())
    .addColumn('token', 'text', (column) =>
      column
        .notNull()
        .defaultTo('held')
        .check(sql`token in ('held', 'refunded', 'spent', 'waived')`),
    )
    .addColumn('paid_calls', 'integer', (column) =>
      column
        .notNull()
        .defaultTo(0)
        .check(sql`paid_calls >= 0`),
    )
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('provider_task_id', 'text')
    .addColumn('artifact_key', 'text')
    .addColumn('artifact_mime', 'text')
    .addColumn('artifact_bytes', 'bigint')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
    .addColumn('started_at', 'timestamptz')
    .addColumn('provider_started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    // A completed generation has its artifact; nothing else does.
    .addCheckConstraint('completed_has_artifact', sql`(status = 'completed') = (artifact_key is not null)`)
    .execute();
  // A user's history, newest first, paged by (created_at, id).
  await db.schema
    .createIndex('generations_by_owner')
    .on('generations')
    .columns(['uid', 'created_at desc', 'id desc'])
    .execute();
  // What the reconciler and the queue positions read: the few generations not yet over.
  await db.schema
    .createIndex('generations_unfinished')
    .on('generations')
    .columns(['kind', 'status', 'created_at'])
    .where(sql.ref('status'), 'in', ['queued', 'active'])
    .execute();
  await db.schema
    .createIndex('generations_by_task')
    .on('generations')
    .column('provider_task_id')
    .where('provider_task_id', 'is not', null)
    .execute();

  await db.schema
    .createTable('token_ledger')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('uid', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    // No foreign key: the ledger outlives a deleted generation.
    .addColumn('generation_id', 'text')
    .addColumn('movement', 'text', (column) =>
      column.notNull().check(sql`movement in ('charge', 'refund', 'spend', 'period_reset')`),
    )
    .addColumn('amount', 'integer', (column) => column.notNull())
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('token_ledger_by_owner').on('token_ledger').columns(['uid', 'created_at']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('uid', 'text', (column) => column.notNull())
    .addColumn('key', 'text', (column) => column.notNull())
    // A key names its generation for as long as that generation exists.
    .addColumn('generation_id', 'text', (column) => column.notNull().references('generations.id').onDelete('cascade'))
    .addColumn('body_hash', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['uid', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['idempotency_keys', 'token_ledger', 'generations', 'accounts']) {
    await db.schema.dropTable(table).execute();
  }
}
