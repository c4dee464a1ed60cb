import type { Kysely } from 'kysely';
import { toRecord, type Database } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import { stateOfRecord } from '../generations/generation-view';
import type { QueuePositions } from '../generations/queue-positions';
import { submissionOf } from '../generations/submission';
import type { RelaySource } from './generation-relay';

/** The most queued generations of one kind a position refresh tells at once. */
const MAX_POSITION_UPDATES = 200;

/** The relay's reads of the record (by primary key or by owner: all indexed). */
export class RecordRelaySource implements RelaySource {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly positions: QueuePositions,
  ) {}

  async submission(id: string) {
    const row = await this.db
      .selectFrom('generations')
      .select(['kind', 'prompt', 'request'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : submissionOf(row.kind, row.prompt, row.request);
  }

  async state(id: string) {
    const row = await this.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined) return null;
    const record = toRecord(row);
    return {
      ...stateOfRecord(record),
      uid: row.uid,
      submission: submissionOf(record.kind, record.prompt, record.request),
    };
  }

  async queued(kind: GenerationKind, uids: readonly string[]) {
    const rows = await this.db
      .selectFrom('generations')
      .selectAll()
      .where('kind', '=', kind)
      .where('status', '=', 'queued')
      .where('uid', 'in', uids)
      // The front of the line first: the places most likely to have moved, and the soonest to run.
      .orderBy('queue_priority')
      .orderBy('queue_order')
      .limit(MAX_POSITION_UPDATES)
      .execute();
    const positions = await this.positions.of(rows.map((row) => row.id));
    return rows.flatMap((row) => {
      const queue = positions.get(row.id);
      if (queue === undefined) return [];
      const record = toRecord(row);
      const submission = submissionOf(record.kind, record.prompt, record.request);
      return [{ state: { ...stateOfRecord(record), uid: row.uid, submission }, queue }];
    });
  }

  async changedSince(since: Date, uids: readonly string[]) {
    const rows = await this.db
      .selectFrom('generations')
      .selectAll()
      .where('uid', 'in', uids)
      .where('updated_at', '>=', since)
      .orderBy('updated_at')
      .execute();
    return rows.map((row) => ({ ...stateOfRecord(toRecord(row)), uid: row.uid }));
  }

  async queuePosition(id: string) {
    return (await this.positions.of([id])).get(id) ?? null;
  }
}
