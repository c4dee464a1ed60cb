import type { Kysely } from 'kysely';

/**
 * Creators never read an operator's error (issue 34): `error_code` and `error_message` stay what the
 * creator reads, and `provider_error` keeps the provider's exact answer (status, code, text, keys masked)
 * for the operators' views only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('provider_error', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').dropColumn('provider_error').execute();
}
