import { sql, type Kysely } from 'kysely';

/**
 * "Reaching us" (issue 37): what people send through the support form, signed in or not, and how an
 * operator answered. Every text is kept as sent (after the request schema's checks) and read back as
 * plain text only. `uid` is the sender's account when signed in; no foreign key, so a request outlives
 * the account that sent it until the account's closure deletes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_requests')
    .addColumn('id', 'integer', (column) => column.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('uid', 'text')
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('topic', 'text', (column) => column.notNull())
    .addColumn('message', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) =>
      column
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'answered')`),
    )
    .addColumn('answered_at', 'timestamptz')
    .addColumn('answered_by', 'text')
    .addColumn('reply', 'text')
    .execute();
  // The operators' list: the open requests, newest first.
  await db.schema
    .createIndex('support_requests_open')
    .on('support_requests')
    .column('id')
    .where(sql.ref('status'), '=', 'open')
    .execute();
  await db.schema
    .createIndex('support_requests_by_uid')
    .on('support_requests')
    .column('uid')
    .where(sql.ref('uid'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('support_requests').execute();
}
