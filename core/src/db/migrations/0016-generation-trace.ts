import type { Kysely } from 'kysely';

/**
 * Tracing (issue 41): the W3C traceparent of a generation's submission, when that submission was traced
 * and sampled. Operators find its trace by it (the admin page, `pnpm queues find`); the final update's
 * emit continues it and the reconciler's, the retention sweep's and the priority aging's passes link to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('trace_parent', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').dropColumn('trace_parent').execute();
}
