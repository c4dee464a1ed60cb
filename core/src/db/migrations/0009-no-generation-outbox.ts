import type { Kysely } from 'kysely';

/**
 * Announcements go out with the transaction that decides them (pg_notify in the lifecycle's statements);
 * nothing has written to the outbox since, and the last release that did is gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('generation_outbox').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('generation_outbox')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('payload', 'text', (column) => column.notNull())
    .execute();
}
