import type { GenerationKind } from '@mediagen/shared';
import type { LifecycleContext } from './lifecycle-context';
import { NEXT_IN_LINE } from './lifecycle-sql';

/** The record's line of waiting generations, `(queue_priority, queue_order)`, which BullMQ's priority follows. */
export class QueueLine {
  constructor(private readonly context: LifecycleContext) {}

  /** The user's generations still waiting for a worker, in the order they wait in. */
  async queuedOf(uid: string): Promise<{ id: string; kind: GenerationKind }[]> {
    return this.context.db
      .selectFrom('generations')
      .select(['id', 'kind'])
      .where('uid', '=', uid)
      .where('status', '=', 'queued')
      .orderBy('queue_priority')
      .orderBy('queue_order')
      .execute();
  }

  /**
   * A waiting generation's job was given `priority` (the priority aging moved it up): the record's line
   * follows, last of that level as in BullMQ. False when it no longer waits.
   */
  async moveInLine(id: string, priority: number): Promise<boolean> {
    const { numUpdatedRows } = await this.context.db
      .updateTable('generations')
      .set({ queue_priority: priority, queue_order: NEXT_IN_LINE })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return numUpdatedRows > 0n;
  }
}
