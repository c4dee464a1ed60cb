import type { GenerationReads, GenerationRecord, HistoryPosition } from '@mediagen/core';
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
function decodeCursor(cursor: string): HistoryPosition {
  const [createdAt = '', id = ''] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime()) || !isGenerationId(id)) {
    throw new ServiceError(400, 'INVALID_REQUEST', 'cursor must be the nextCursor of a previous page');
  }
  return { createdAt: date, id };
}

/** A user's generations, from the record: kept until the user deletes them. */
export class GenerationHistory {
  constructor(private readonly reads: Pick<GenerationReads, 'ownGeneration' | 'historyPage'>) {}

  /** The user's own generation; someone else's reads exactly like a missing one. */
  find(uid: string, id: string): Promise<GenerationRecord | null> {
    return this.reads.ownGeneration(uid, id);
  }

  /** Newest first, `limit` at a time, filtered by kind and status, searched in prompts. */
  async page(uid: string, query: ListQuery): Promise<HistoryPage> {
    const { cursor, ...filters } = query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    const { records, more } = await this.reads.historyPage(uid, { ...filters, after });
    const last = records.at(-1);
    return { records, nextCursor: more && last !== undefined ? encodeCursor(last) : null };
  }
}
