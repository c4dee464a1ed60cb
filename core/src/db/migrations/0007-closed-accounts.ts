import { sql, type Kysely } from 'kysely';

/**
 * Closing wins (issue 33). `closed_accounts` keeps the uid of every closed account: the statements that
 * make an account row check it, so nothing of a closed account is made again, whatever raced the
 * closure. Each account keeps the hash of its owner's email (the key of the trace it would leave), so an
 * account whose identity was deleted at the identity service, not through us, is found by the next
 * account with the same email and closed as if its owner had asked, leaving its trace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('closed_accounts')
    .addColumn('uid', 'text', (column) => column.primaryKey())
    .addColumn('closed_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.alterTable('accounts').addColumn('email_hash', 'text').execute();
  await db.schema
    .createIndex('accounts_by_email_hash')
    .on('accounts')
    .column('email_hash')
    .where(sql.ref('email_hash'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('accounts_by_email_hash').execute();
  await db.schema.alterTable('accounts').dropColumn('email_hash').execute();
  await db.schema.dropTable('closed_accounts').execute();
}
