import type { Kysely } from 'kysely';

/**
 * Content Credentials on the library (issue 40): what the C2PA manifests signed into the first file and
 * its marked copy say (ContentCredentialsSummary), beside `artifact_key` and its neighbours; an image set's
 * every file keeps its own in `outputs`. Null for a file stored unsigned and for records made before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('content_credentials', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').dropColumn('content_credentials').execute();
}
