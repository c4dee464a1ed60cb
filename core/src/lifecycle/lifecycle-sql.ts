import { sql, type RawBuilder } from 'kysely';
import { GENERATION_EVENTS_CHANNEL, eventPayload } from './generation-events';

/** A generation (re)joining its queue's level goes last of it, as BullMQ's own counter orders jobs. */
export const NEXT_IN_LINE = sql<string>`nextval('generations_queue_order')`;

/** The columns of every token movement; each statement selects its lines into them. */
export const INSERT_LEDGER_LINES = sql`insert into token_ledger (uid, kind, generation_id, movement, amount, reason, created_at)`;

/**
 * SQL: announces the generation row `alias` on GENERATION_EVENTS_CHANNEL (delivered at commit, and only
 * on commit); `removed` for the last announcement of a row being deleted.
 */
export function announce(alias: string, removed = false): RawBuilder<unknown> {
  return sql`pg_notify(${GENERATION_EVENTS_CHANNEL}, ${eventPayload(alias, removed)})`;
}
