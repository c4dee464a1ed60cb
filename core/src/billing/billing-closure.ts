import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';

/** Stripe's statuses after which a subscription bills nothing more. */
const ENDED_STATUSES = ['canceled', 'incomplete_expired'];

/**
 * Closing an account, in the closure's transaction (account-closure.ts, under the uid's lock): every
 * billing row of the uid goes, but the trial mark (kept under the email hash, like the account's trace)
 * and what must still reach Stripe: its subscriptions not ended, to cancel once this commits
 * (BillingRecord.cancelPending), and its customer, so a late event of it cancels what it names instead
 * of being refused.
 */
export async function closeBillingIn(trx: Transaction<Database>, uid: string, now: Date): Promise<void> {
  const live = await trx
    .selectFrom('billing_subscriptions')
    .select(['subscription_id', 'customer_id'])
    .where('uid', '=', uid)
    .where('status', 'not in', ENDED_STATUSES)
    .execute();
  if (live.length > 0) {
    await trx
      .insertInto('billing_cancellations')
      .values(live.map((row) => ({ ...row, requested_at: now })))
      .onConflict((conflict) => conflict.column('subscription_id').doNothing())
      .execute();
  }
  const customer = await trx
    .deleteFrom('billing_customers')
    .where('uid', '=', uid)
    .returning('customer_id')
    .executeTakeFirst();
  if (customer !== undefined) {
    await trx
      .insertInto('billing_closed_customers')
      .values({ customer_id: customer.customer_id, closed_at: now })
      .onConflict((conflict) => conflict.column('customer_id').doNothing())
      .execute();
  }
  await trx.deleteFrom('billing_subscriptions').where('uid', '=', uid).execute();
  await trx.deleteFrom('billing_events').where('uid', '=', uid).execute();
  await trx.deleteFrom('sales_requests').where('uid', '=', uid).execute();
}
