import { sql, type Kysely } from 'kysely';

/**
 * Image sets (issue 36): a generation is charged `token_count` tokens together at submit (one per image),
 * `tokens_returned` says how many of them its ending gave back (a filtered image's, or all by the token
 * rules), and `outputs` lists every output of a set in order, each file with its marked copy and seed, or
 * a filtered image without one. The first file stays in `artifact_key` and its neighbours, so what reads
 * one result reads the set's first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('generations')
    .addColumn('token_count', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('tokens_returned', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('outputs', 'jsonb')
    .execute();
  await db.schema
    .alterTable('generations')
    .addCheckConstraint(
      'tokens_returned_within_count',
      sql`token_count between 1 and 10 and tokens_returned between 0 and token_count`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').dropConstraint('tokens_returned_within_count').execute();
  await db.schema
    .alterTable('generations')
    .dropColumn('outputs')
    .dropColumn('tokens_returned')
    .dropColumn('token_count')
    .execute();
}
