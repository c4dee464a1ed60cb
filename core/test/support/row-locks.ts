import pg from 'pg';
import { expect } from 'vitest';

/**
 * Forcing an interleaving on the record: a transaction of its own holds a row, and what arrives meanwhile
 * queues for it in the order it arrives.
 */

/** Backends of the database at `url` waiting for a lock (row, transaction or advisory). */
export async function lockWaiters(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ waiting: number }>(
      `select count(*)::int as waiting from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return rows[0]!.waiting;
  } finally {
    await client.end();
  }
}

/** Holds the row of `table` whose `column` is `value` (`for update`) until `release`. */
export async function holdRow(
  url: string,
  table: 'accounts' | 'generations',
  column: 'uid' | 'id',
  value: string,
): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(`select 1 from ${table} where ${column} = $1 for update`, [value]);
  return {
    async release() {
      await client.query('commit');
      await client.end();
    },
  };
}

/**
 * Starts `work` and waits until it waits for a lock, so the next one to wait queues behind it. Its result
 * comes wrapped: an async function's own promise would wait for it.
 */
export async function queued<T>(url: string, work: () => Promise<T>): Promise<{ outcome: Promise<T> }> {
  const before = await lockWaiters(url);
  const outcome = work();
  // Caught here so a failure is not unhandled while the test waits; the caller awaits it.
  outcome.catch(() => undefined);
  await expect.poll(() => lockWaiters(url)).toBe(before + 1);
  return { outcome };
}
