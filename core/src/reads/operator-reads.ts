import type { Kysely } from 'kysely';
import type { GenerationKind } from '@mediagen/shared';
import type { Database } from '../db/schema';
import { toRecord, type GenerationRecord } from '../lifecycle/generation-record';

/** A user's generations, newest first (at most `limit`), whatever their status. */
export async function latestOf(db: Kysely<Database>, uid: string, limit: number): Promise<GenerationRecord[]> {
  const rows = await db
    .selectFrom('generations')
    .selectAll()
    .where('uid', '=', uid)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** The generations a provider's task id was recorded for (a provider's support ticket names it). */
export async function byProviderTask(db: Kysely<Database>, taskId: string): Promise<GenerationRecord[]> {
  const rows = await db.selectFrom('generations').selectAll().where('provider_task_id', '=', taskId).execute();
  return rows.map(toRecord);
}

/** Failed generations of these kinds, oldest failure first (at most `limit`): what a retry takes. */
export async function failedOldestFirst(
  db: Kysely<Database>,
  kinds: readonly GenerationKind[],
  limit: number,
): Promise<{ id: string; kind: GenerationKind; uid: string }[]> {
  return db
    .selectFrom('generations')
    .select(['id', 'kind', 'uid'])
    .where('status', '=', 'failed')
    .where('kind', 'in', kinds)
    .orderBy('finished_at')
    .limit(limit)
    .execute();
}
