import { sql, type Kysely } from 'kysely';

/**
 * Personal API keys (issue 39). A key is kept as its HMAC-SHA-256 under the server's API_KEY_HMAC_SECRET,
 * never as itself; every request with a key finds its row by that hash (unique, so indexed). Revoked keys
 * stay (revoked_at) until the account closes, which deletes them all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('uid', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
    .addColumn('last_four', 'text', (column) => column.notNull())
    .addColumn('scopes', sql`text[]`, (column) =>
      column.notNull().check(sql`cardinality(scopes) > 0 and scopes <@ array['generate', 'read']::text[]`),
    )
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_by_uid').on('api_keys').column('uid').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
