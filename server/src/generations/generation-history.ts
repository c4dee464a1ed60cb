import type { Kysely } from 'kysely';
import { toRecord, type Database, type GenerationRecord } from '@mediagen/core';
import { isGenerationId, type ListQuery } from '@mediagen/shared';
import { ServiceError } from '../http/errors';

export interface HistoryPage {
  records: GenerationRecord[];
  nextCursor: string | null;
}

/** A page ends after the last item's (creation time, id): stable however many are added meanwhile. */
function encodeCursor(record: GenerationRecord): string {
  return Buffer.from(`${record.createdAt.toISOString()}|${record.id}`).toString('base64url');
}

/** A cursor is only ever one this server made: anything else in it never reaches a query. */
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [createdAt = '', id = ''] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime()) || !isGenerationId(id)) {
    throw new ServiceError(400, 'INVALID_REQUEST', 'cursor must be the nextCursor of a previous page');
  }
  return { createdAt: date, id };
}

/** LIKE treats % and _ as wildcards; a search for them means the characters. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** A user's generations, from the record: kept until the user deletes them. */
export class GenerationHistory {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's own generation; someone else's reads exactly like a missing one. */
  async find(uid: string, id: string): Promise<GenerationRecord | null> {
    const row = await this.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', id)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return row === undefined ? null : toRecord(row);
  }

  /** Newest first, `limit` at a time, filtered by kind and status, searched in prompts. */
  async page(uid: string, query: ListQuery): Promise<HistoryPage> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await this.db
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
      .limit(query.limit + 1)
      .execute();
    const records = rows.slice(0, query.limit).map(toRecord);
    const last = records.at(-1);
    return { records, nextCursor: rows.length > query.limit && last !== undefined ? encodeCursor(last) : null };
  }
}
