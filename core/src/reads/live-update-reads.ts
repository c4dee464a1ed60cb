import type { Kysely } from 'kysely';
import type { GenerationKind } from '@mediagen/shared';
import type { Database } from '../db/schema';
import { toRecord, type GenerationRecord } from '../lifecycle/generation-record';

/** What was asked for, as submitted: enough to rebuild a submission without the rest of the row. */
export interface SubmittedRequest {
  kind: GenerationKind;
  prompt: string;
  request: Record<string, unknown>;
}

/** The relay's reads (by primary key or by owner: all indexed). */
export async function submittedRequest(db: Kysely<Database>, id: string): Promise<SubmittedRequest | null> {
  const row = await db
    .selectFrom('generations')
    .select(['kind', 'prompt', 'request'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** The generations of `kind` these owners have waiting, at most `limit`, front of the line first. */
export async function queuedForOwners(
  db: Kysely<Database>,
  kind: GenerationKind,
  uids: readonly string[],
  limit: number,
): Promise<GenerationRecord[]> {
  const rows = await db
    .selectFrom('generations')
    .selectAll()
    .where('kind', '=', kind)
    .where('status', '=', 'queued')
    .where('uid', 'in', uids)
    // The front of the line first: the places most likely to have moved, and the soonest to run.
    .orderBy('queue_priority')
    .orderBy('queue_order')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** These owners' generations changed at or after `since`, in the order they changed: a replay's. */
export async function changedSince(
  db: Kysely<Database>,
  since: Date,
  uids: readonly string[],
): Promise<GenerationRecord[]> {
  const rows = await db
    .selectFrom('generations')
    .selectAll()
    .where('uid', 'in', uids)
    .where('updated_at', '>=', since)
    .orderBy('updated_at')
    .execute();
  return rows.map(toRecord);
}
