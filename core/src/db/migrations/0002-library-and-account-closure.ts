import { sql, type Kysely } from 'kysely';

/**
 * What issue 15 keeps: a plan per account (Free until set), the time retention deleted a generation's
 * artifact (the record stays, saying so), and the anonymous trace a closed account leaves so that
 * closing and signing up again does not reset the period's free tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('plan', 'text', (column) =>
      column
        .notNull()
        .defaultTo('free')
        .check(sql`plan in ('free', 'pro', 'enterprise')`),
    )
    .execute();

  await db.schema.alterTable('generations').addColumn('artifact_expired_at', 'timestamptz').execute();
  await db.schema.alterTable('generations').dropConstraint('completed_has_artifact').execute();
  // A completed generation has its artifact, or the time retention deleted it; nothing else has either.
  await db.schema
    .alterTable('generations')
    .addCheckConstraint(
      'completed_has_artifact',
      sql`(status = 'completed') = (artifact_key is not null or artifact_expired_at is not null)
        and (artifact_key is null or artifact_expired_at is null)`,
    )
    .execute();
  // What retention looks for: completed generations that still have their file, oldest first.
  await db.schema
    .createIndex('generations_with_artifact')
    .on('generations')
    .column('created_at')
    .where(sql.ref('artifact_key'), 'is not', null)
    .execute();

  await db.schema
    .createTable('account_traces')
    // An HMAC of the normalised email: equal for the same address, and no email can be read back from it.
    .addColumn('email_hash', 'text', (column) => column.primaryKey())
    .addColumn('period_started_at', 'timestamptz', (column) => column.notNull())
    .addColumn('image_spent', 'integer', (column) => column.notNull().check(sql`image_spent >= 0`))
    .addColumn('video_spent', 'integer', (column) => column.notNull().check(sql`video_spent >= 0`))
    .addColumn('speech_spent', 'integer', (column) => column.notNull().check(sql`speech_spent >= 0`))
    .addColumn('closed_at', 'timestamptz', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_traces').execute();
  await db.schema.dropIndex('generations_with_artifact').execute();
  await db.schema.alterTable('generations').dropConstraint('completed_has_artifact').execute();
  await db.schema
    .alterTable('generations')
    .addCheckConstraint('completed_has_artifact', sql`(status = 'completed') = (artifact_key is not null)`)
    .execute();
  await db.schema.alterTable('generations').dropColumn('artifact_expired_at').execute();
  await db.schema.alterTable('accounts').dropColumn('plan').execute();
}
