import { sql, type Kysely } from 'kysely';

/**
 * Signed webhooks (issue 39). `webhook_endpoints`: where a user wants generations' endings sent, its
 * secret encrypted with the server's key (it signs, so it cannot be hashed). `webhook_events`: the outbox
 * and the delivery record at once, one row per endpoint an ending matched, written by the ending's own
 * statement (so a crash after the commit loses none); its id is the `webhook-id` every attempt carries.
 * `webhook_attempts`: each try and its answer. An account's closure takes all three with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('uid', 'text', (column) => column.notNull().references('accounts.uid').onDelete('cascade'))
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('events', sql`text[]`, (column) => column.notNull())
    .addColumn('secret_sealed', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('disabled_reason', 'text')
    // Deliveries that used up every attempt since the last one delivered, and when the first of them was made.
    .addColumn('exhausted_in_row', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('failing_since', 'timestamptz')
    .execute();
  await db.schema.createIndex('webhook_endpoints_by_uid').on('webhook_endpoints').column('uid').execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('endpoint_id', 'text', (column) =>
      column.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (column) => column.notNull())
    // The generation as its ending left it (the row); null for a test event.
    .addColumn('generation', 'jsonb')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    // Set once the dispatcher has handed the event to the delivery queue.
    .addColumn('enqueued_at', 'timestamptz')
    .addColumn('state', 'text', (column) =>
      column
        .notNull()
        .defaultTo('pending')
        .check(sql`state in ('pending', 'delivered', 'failed')`),
    )
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // The dispatcher's work: events not yet handed over, oldest first.
  await db.schema
    .createIndex('webhook_events_to_enqueue')
    .on('webhook_events')
    .column('created_at')
    .where(sql.ref('enqueued_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('webhook_events_by_endpoint')
    .on('webhook_events')
    .columns(['endpoint_id', 'created_at desc'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'integer', (column) => column.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('event_id', 'text', (column) => column.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('attempted_at', 'timestamptz', (column) => column.notNull())
    .addColumn('ok', 'boolean', (column) => column.notNull())
    .addColumn('response_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_by_event').on('webhook_attempts').column('event_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
