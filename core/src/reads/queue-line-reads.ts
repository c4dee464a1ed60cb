import type { Kysely } from 'kysely';
import type { GenerationKind } from '@mediagen/shared';
import type { Database } from '../db/schema';

/** A queued generation's place in its kind's line, itself included. */
export interface PlaceInLine {
  id: string;
  kind: GenerationKind;
  position: number;
}

/**
 * Places in line of those of `ids` still queued, in the order workers take jobs (priority, then the order
 * they joined that level), each counted through the line's index as far as itself. One written by a server
 * of the release before (no place in the line recorded) gets none.
 */
export async function placesInLine(db: Kysely<Database>, ids: readonly string[]): Promise<PlaceInLine[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('generations as g')
    .select((eb) => [
      'g.id',
      'g.kind',
      eb
        .selectFrom('generations as q')
        .select(eb.fn.countAll<string>().as('ahead'))
        .where('q.status', '=', 'queued')
        .whereRef('q.kind', '=', 'g.kind')
        .where((ahead) =>
          ahead(
            ahead.refTuple('q.queue_priority', 'q.queue_order'),
            '<=',
            ahead.refTuple('g.queue_priority', 'g.queue_order'),
          ),
        )
        .as('position'),
    ])
    .where('g.id', 'in', ids)
    .where('g.status', '=', 'queued')
    .where('g.queue_priority', 'is not', null)
    .execute();
  return rows.map((row) => ({ id: row.id, kind: row.kind, position: Number(row.position) }));
}

export interface AgingCandidates {
  /** Submitted before this. */
  queuedBefore: Date;
  /** The top priority: generations already there (or moved there) are not candidates. */
  topPriority: number;
  limit: number;
}

/** Waiting generations the priority aging may move to the top, oldest first. */
export async function waitingToAge(
  db: Kysely<Database>,
  { queuedBefore, topPriority, limit }: AgingCandidates,
): Promise<{ id: string; kind: GenerationKind; traceParent: string | null }[]> {
  return db
    .selectFrom('generations')
    .select(['id', 'kind', 'trace_parent as traceParent'])
    .where('status', '=', 'queued')
    .where('created_at', '<', queuedBefore)
    .where((eb) => eb.or([eb('queue_priority', '>', topPriority), eb('queue_priority', 'is', null)]))
    .orderBy('created_at')
    .limit(limit)
    .execute();
}
