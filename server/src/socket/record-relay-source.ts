import { type GenerationReads, stateOfRecord, submissionOf } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import type { QueuePositions } from '../generations/queue-positions';
import type { RelaySource } from './generation-relay';

/** The most queued generations of one kind a position refresh tells at once. */
const MAX_POSITION_UPDATES = 200;

/** The relay's reads of the record (by primary key or by owner: all indexed). */
export class RecordRelaySource implements RelaySource {
  constructor(
    private readonly reads: Pick<
      GenerationReads,
      'submittedRequest' | 'generation' | 'queuedForOwners' | 'changedSince'
    >,
    private readonly positions: QueuePositions,
  ) {}

  async submission(id: string) {
    const asked = await this.reads.submittedRequest(id);
    return asked === null ? null : submissionOf(asked.kind, asked.prompt, asked.request);
  }

  async state(id: string) {
    const record = await this.reads.generation(id);
    if (record === null) return null;
    return {
      ...stateOfRecord(record),
      uid: record.uid,
      submission: submissionOf(record.kind, record.prompt, record.request),
    };
  }

  async queued(kind: GenerationKind, uids: readonly string[]) {
    const records = await this.reads.queuedForOwners(kind, uids, MAX_POSITION_UPDATES);
    const positions = await this.positions.of(records.map((record) => record.id));
    return records.flatMap((record) => {
      const queue = positions.get(record.id);
      if (queue === undefined) return [];
      const submission = submissionOf(record.kind, record.prompt, record.request);
      return [{ state: { ...stateOfRecord(record), uid: record.uid, submission }, queue }];
    });
  }

  async changedSince(since: Date, uids: readonly string[]) {
    const records = await this.reads.changedSince(since, uids);
    return records.map((record) => ({ ...stateOfRecord(record), uid: record.uid }));
  }

  async queuePosition(id: string) {
    return (await this.positions.of([id])).get(id) ?? null;
  }
}
