import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { toRecord, type GenerationRecord } from '../lifecycle/generation-record';

/** One generation as the record holds it, whoever owns it: for the lifecycle, the relay and operators. */
export async function generationById(db: Kysely<Database>, id: string): Promise<GenerationRecord | null> {
  const row = await db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : toRecord(row);
}
