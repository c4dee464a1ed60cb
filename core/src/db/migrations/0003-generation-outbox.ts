import type { Kysely } from 'kysely';

/**
 * Announcements written by the statement that submits a generation and sent (NOTIFY) in batches
 * afterwards: a notifying transaction holds PostgreSQL's notify lock through its commit, so one NOTIFY per
 * submission made every submission commit in turn.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('generation_outbox')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('payload', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('generation_outbox').execute();
}
