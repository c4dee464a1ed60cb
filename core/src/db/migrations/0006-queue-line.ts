import { sql, type Kysely } from 'kysely';

/**
 * Where a queued generation stands in its queue, as BullMQ orders jobs: the priority its job has, then the
 * order in which jobs joined that level (a plan change or the priority aging puts a job last of its new
 * level), drawn from a sequence as BullMQ draws from a counter. A place in line is then counted through an
 * index, as far as the generation, however long the line behind it. Queued generations get the
 * priorities plans had when this ran (Enterprise 1, Pro 2, Free 3), in submission order. Rows a server of
 * the release before writes during a rolling upgrade have none: they are left out of the counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence generations_queue_order`.execute(db);
  await db.schema
    .alterTable('generations')
    .addColumn('queue_priority', 'integer')
    .addColumn('queue_order', 'bigint')
    .execute();
  await sql`
    update generations g set queue_order = nextval('generations_queue_order'),
      queue_priority = case a.plan when 'enterprise' then 1 when 'pro' then 2 else 3 end
    from (select id from generations where status = 'queued' order by created_at, id) as waiting, accounts a
    where g.id = waiting.id and a.uid = g.uid`.execute(db);
  await db.schema
    .createIndex('generations_line')
    .on('generations')
    .columns(['kind', 'queue_priority', 'queue_order'])
    .where(sql.ref('status'), '=', 'queued')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('generations_line').execute();
  await db.schema.alterTable('generations').dropColumn('queue_priority').dropColumn('queue_order').execute();
  await sql`drop sequence generations_queue_order`.execute(db);
}
