import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The advisory-lock key space of account locks (the two-integer form, which never meets the one-bigint
 * form the reconciler's lock uses); the second key is the uid's hash. Two uids that share a hash only
 * wait for each other, which is harmless.
 */
const ACCOUNT_LOCK_SPACE = 330_001;

/**
 * Runs `work` in a transaction that first takes the uid's account lock: closing an account and making its
 * row hold it, so they happen one after the other. The lock is taken by a statement of its own: under READ
 * COMMITTED each statement of `work` then reads what the other committed before it let go (a statement
 * that waited for the lock itself would still read from before).
 */
export async function withAccountLock<T>(
  db: Kysely<Database>,
  uid: string,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_SPACE}, hashtext(${uid}))`.execute(trx);
    return work(trx);
  });
}
