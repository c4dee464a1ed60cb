import { sql, type RawBuilder } from 'kysely';

/**
 * An account's plan or balance was changed by billing, an operator or a renewal: announced on this
 * PostgreSQL channel by the transaction that changed it (delivered at commit, and only on commit), so
 * every server can tell the owner's sockets (`account:update`). The payload names the account; the
 * server reads its balance as it is when it tells.
 */
export const ACCOUNT_UPDATES_CHANNEL = 'account_updates';

/** SQL: announces that the account of `uid` changed. */
export function announceAccount(uid: string): RawBuilder<unknown> {
  return sql`pg_notify(${ACCOUNT_UPDATES_CHANNEL}, ${JSON.stringify({ uid })})`;
}

/** The uid a payload of the channel names; null for anything else. */
export function parseAccountUpdate(payload: string | undefined): string | null {
  try {
    const event = JSON.parse(payload ?? '') as { uid?: unknown };
    return typeof event.uid === 'string' ? event.uid : null;
  } catch {
    return null;
  }
}
