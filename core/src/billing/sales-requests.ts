import type { Kysely, Selectable } from 'kysely';
import type { SalesRequestView, SalesVolume } from '@mediagen/shared';
import type { Database, SalesRequestsTable } from '../db/schema';

export interface NewSalesRequest {
  uid: string | null;
  email: string;
  company: string;
  volume: SalesVolume;
  message: string;
}

export interface SalesPage {
  items: SalesRequestView[];
  /** The id to pass as `before` for the next (older) page; null on the last page. */
  nextCursor: number | null;
}

const toView = (row: Selectable<SalesRequestsTable>): SalesRequestView => ({
  id: row.id,
  email: row.email,
  company: row.company,
  volume: row.volume,
  message: row.message,
  uid: row.uid,
  createdAt: row.created_at.toISOString(),
});

/**
 * Enterprise's Contact Sales requests (issue 38), beside the support form's: written when one arrives,
 * read by operators (the admin page, `pnpm queues sales`). Texts are kept as the request schema let them
 * in, plain text for whoever shows them to render as text. An account's requests go with its closure.
 */
export class SalesRequests {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  async create(request: NewSalesRequest): Promise<SalesRequestView> {
    const row = await this.db
      .insertInto('sales_requests')
      .values({ ...request, created_at: new Date(this.clock()) })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toView(row);
  }

  /** Newest first, `limit` at a time, older than `before` (an id of the previous page). */
  async list(options: { limit: number; before?: number }): Promise<SalesPage> {
    let query = this.db
      .selectFrom('sales_requests')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(options.limit + 1);
    if (options.before !== undefined) query = query.where('id', '<', options.before);
    const rows = await query.execute();
    const items = rows.slice(0, options.limit).map(toView);
    return { items, nextCursor: rows.length > options.limit ? items.at(-1)!.id : null };
  }
}
