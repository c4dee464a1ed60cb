import type { Kysely } from 'kysely';
import type { ListQuery } from '@mediagen/shared';
import type { Database } from '../db/schema';
import { toRecord, type GenerationRecord } from '../lifecycle/generation-record';

/** Where the previous page ended: its last item's (creation time, id), stable however many are added meanwhile. */
export interface HistoryPosition {
  createdAt: Date;
  id: string;
}

/** A page of the history: the filters the API takes, and where the page before it ended. */
export type HistoryQuery = Omit<ListQuery, 'cursor'> & { after?: HistoryPosition | undefined };

export interface HistoryRows {
  /** Newest first, at most the query's limit. */
  records: GenerationRecord[];
  /** Whether older ones match too. */
  more: boolean;
}

/** LIKE treats % and _ as wildcards; a search for them means the characters. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** The user's own generation; someone else's reads exactly like a missing one. */
export async function ownGeneration(db: Kysely<Database>, uid: string, id: string): Promise<GenerationRecord | null> {
  const row = await db
    .selectFrom('generations')
    .selectAll()
    .where('id', '=', id)
    .where('uid', '=', uid)
    .executeTakeFirst();
  return row === undefined ? null : toRecord(row);
}

/** The user's generations newest first, filtered by kind and status, searched in prompts. */
export async function historyPage(db: Kysely<Database>, uid: string, query: HistoryQuery): Promise<HistoryRows> {
  const { after } = query;
  const rows = await db
    .selectFrom('generations')
    .selectAll()
    .where('uid', '=', uid)
    .$if(query.kind !== undefined, (builder) => builder.where('kind', '=', query.kind!))
    .$if(query.status !== undefined, (builder) => builder.where('status', '=', query.status!))
    .$if(query.q !== undefined, (builder) => builder.where('prompt', 'ilike', `%${escapeLike(query.q!)}%`))
    .$if(after !== undefined, (builder) =>
      builder.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after!.createdAt, after!.id))),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    // One more than asked for says whether another page follows.
    .limit(query.limit + 1)
    .execute();
  return { records: rows.slice(0, query.limit).map(toRecord), more: rows.length > query.limit };
}
