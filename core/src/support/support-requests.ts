import type { Kysely, Selectable } from 'kysely';
import type { SupportRequestView, SupportTopic } from '@mediagen/shared';
import type { Database, SupportRequestsTable } from '../db/schema';

export interface NewSupportRequest {
  uid: string | null;
  email: string;
  topic: SupportTopic;
  message: string;
}

export interface SupportPage {
  items: SupportRequestView[];
  /** The id to pass as `before` for the next (older) page; null on the last page. */
  nextCursor: number | null;
}

export type AnswerMark =
  | { outcome: 'answered'; request: SupportRequestView }
  | { outcome: 'already_answered'; request: SupportRequestView }
  | { outcome: 'not_found' };

const toView = (row: Selectable<SupportRequestsTable>): SupportRequestView => ({
  id: row.id,
  status: row.status,
  email: row.email,
  topic: row.topic,
  message: row.message,
  uid: row.uid,
  createdAt: row.created_at.toISOString(),
  answeredAt: row.answered_at?.toISOString() ?? null,
  answeredBy: row.answered_by,
  reply: row.reply,
});

/**
 * The support form's requests in the record (issue 37): written when one arrives, read and marked
 * answered by operators (the admin API, `pnpm queues support`). Texts are stored and returned as the
 * request schema let them in: plain text, for whoever shows them to render as text.
 */
export class SupportRequests {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  async create(request: NewSupportRequest): Promise<SupportRequestView> {
    const row = await this.db
      .insertInto('support_requests')
      .values({ ...request, created_at: new Date(this.clock()) })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toView(row);
  }

  async get(id: number): Promise<SupportRequestView | null> {
    const row = await this.db.selectFrom('support_requests').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toView(row);
  }

  /** Newest first, `limit` at a time, older than `before` (an id of the previous page). */
  async list(options: { status: 'open' | 'all'; limit: number; before?: number }): Promise<SupportPage> {
    let query = this.db
      .selectFrom('support_requests')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(options.limit + 1);
    if (options.status === 'open') query = query.where('status', '=', 'open');
    if (options.before !== undefined) query = query.where('id', '<', options.before);
    const rows = await query.execute();
    const items = rows.slice(0, options.limit).map(toView);
    return { items, nextCursor: rows.length > options.limit ? items.at(-1)!.id : null };
  }

  /**
   * Marks an open request answered, with the reply and who sent it: a compare-and-set, so of two
   * operators answering at once exactly one does (the other reads `already_answered`).
   */
  async markAnswered(id: number, answer: { reply: string | null; answeredBy: string }): Promise<AnswerMark> {
    const row = await this.db
      .updateTable('support_requests')
      .set({
        status: 'answered',
        answered_at: new Date(this.clock()),
        answered_by: answer.answeredBy,
        reply: answer.reply,
      })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .returningAll()
      .executeTakeFirst();
    if (row !== undefined) return { outcome: 'answered', request: toView(row) };
    const current = await this.get(id);
    return current === null ? { outcome: 'not_found' } : { outcome: 'already_answered', request: current };
  }

  /** Takes back a mark whose reply could not be sent: the request is open again, as it was. */
  async reopen(id: number, answeredAt: string): Promise<void> {
    await this.db
      .updateTable('support_requests')
      .set({ status: 'open', answered_at: null, answered_by: null, reply: null })
      .where('id', '=', id)
      .where('status', '=', 'answered')
      .where('answered_at', '=', new Date(answeredAt))
      .execute();
  }
}
