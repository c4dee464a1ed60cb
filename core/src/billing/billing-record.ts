import type { Kysely, Selectable, Transaction } from 'kysely';
import { DAY_MS, type BillingState, type PlanCatalogue, type PlanId, type SubscriptionState } from '@mediagen/shared';
import type { BillingSubscriptionsTable, Database } from '../db/schema';
import { withAccountLock } from '../lifecycle/account-lock';
import { Accounts } from '../lifecycle/accounts';
import type { LifecycleContext } from '../lifecycle/lifecycle-context';
import { QueueLine } from '../lifecycle/queue-line';
import type { GenerationJobOwner } from '../queue/job-owner';
import { followPlanInQueue } from '../queue/plan-change';
import {
  UnknownPriceError,
  type BillingEvent,
  type PriceCatalogue,
  type SubscriptionSnapshot,
  type SubscriptionSource,
} from './billing-provider';

type SubscriptionRow = Selectable<BillingSubscriptionsTable>;

/** Stripe's statuses under which a subscription is paid for (past due: within its grace period). */
const LIVE_STATUSES = ['active', 'trialing', 'past_due'];

export interface BillingLogger {
  warn(details: object, message: string): void;
}

export interface BillingOptions {
  plans: PlanCatalogue;
  prices: PriceCatalogue;
  /** The payment provider; null where billing is not configured (events and checkout are then refused). */
  source: SubscriptionSource | null;
  /** Past due keeps the plan this long (BILLING_GRACE_DAYS), then the account falls back to Free. */
  graceDays: number;
  /** Waiting jobs follow a plan change once it has committed. */
  jobs: Pick<GenerationJobOwner, 'reprioritized'>;
  log: BillingLogger;
  clock?: () => number;
}

export type EventOutcome =
  | { outcome: 'applied'; uid: string; plan: PlanId; planChanged: boolean; renewed: boolean }
  | { outcome: 'replayed' }
  /** A closed account's customer: whatever still bills it was canceled, nothing else changed. */
  | { outcome: 'closed_account' }
  | { outcome: 'unknown_customer' };

/** GET /api/billing as the record says it (the server adds whether checkout is configured). */
export type BillingView = Omit<BillingState, 'checkoutAvailable' | 'trialDays'>;

/** A subscription's effect on its account, applied under the account's lock. */
interface Settlement {
  plan: PlanId;
  planChanged: boolean;
  renewed: boolean;
}

/**
 * Paid plans in the record (issue 38): the only code that writes the billing tables. Stripe delivers
 * each webhook event at least once and in any order, so an event is applied under its account's lock
 * (account-lock.ts), its id recorded in the same transaction as its effect (a replay, even one delivered
 * to another server at the same moment, finds it and changes nothing), and the effect computed from the
 * subscription as Stripe says it is now, never from the event's payload. The plan follows the account's
 * live subscriptions through the lifecycle's one plan-change path (Accounts.setPlanIn) in that
 * transaction; the waiting jobs follow after the commit.
 */
export class BillingRecord {
  private readonly context: LifecycleContext;
  private readonly accounts: Accounts;
  private readonly queueLine: QueueLine;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: BillingOptions,
  ) {
    const clock = options.clock ?? Date.now;
    this.context = { db, plans: options.plans, maxPaidCalls: 0, now: () => new Date(clock()) };
    this.accounts = new Accounts(this.context);
    this.queueLine = new QueueLine(this.context);
  }

  /** The account's Stripe customer, once made. */
  async customerOf(uid: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('billing_customers')
      .select('customer_id')
      .where('uid', '=', uid)
      .executeTakeFirst();
    return row?.customer_id ?? null;
  }

  /**
   * Keeps the account's customer: the first one saved stays (two checkouts at once both made one; the
   * caller deletes the one that lost). Returns the customer the account has.
   */
  async saveCustomer(uid: string, customerId: string, emailHash: string | null): Promise<string> {
    await this.db
      .insertInto('billing_customers')
      .values({ uid, customer_id: customerId, email_hash: emailHash, created_at: this.context.now() })
      .onConflict((conflict) => conflict.column('uid').doNothing())
      .execute();
    return (await this.customerOf(uid)) ?? customerId;
  }

  /** Whether the account has a subscription that is paid for (a second one is never sold). */
  async hasLiveSubscription(uid: string): Promise<boolean> {
    const rows = await this.subscriptionsOf(this.db, uid);
    return rows.some((row) => this.isLive(row));
  }

  /** Whether this person (by email hash, closed accounts included) has had a trial. */
  async trialUsed(emailHash: string | null): Promise<boolean> {
    if (emailHash === null) return false;
    const row = await this.db
      .selectFrom('billing_trials')
      .select('email_hash')
      .where('email_hash', '=', emailHash)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Applies a webhook event. Throws UnknownPriceError (nothing changed) for a subscription to a price that
   * is not ours, and whatever the provider threw when it could not be read (nothing changed: the event
   * is not recorded, so Stripe's retry applies it later).
   */
  async applyEvent(event: BillingEvent): Promise<EventOutcome> {
    const source = this.requireSource();
    const owner = await this.ownerOf(event.customerId);
    if (owner === 'closed') return this.cancelForClosedAccount(source, event);
    if (owner === null) return { outcome: 'unknown_customer' };
    const uid = owner;
    const result = await withAccountLock(this.db, uid, async (trx): Promise<EventOutcome> => {
      const recorded = await trx
        .insertInto('billing_events')
        .values({ event_id: event.id, type: event.type, uid, processed_at: this.context.now() })
        .onConflict((conflict) => conflict.column('event_id').doNothing())
        .returning('event_id')
        .executeTakeFirst();
      if (recorded === undefined) return { outcome: 'replayed' };
      // Read under the lock: of two events applied one after the other, the later reads the later state.
      const snapshot = await source.subscription(event.subscriptionId);
      if (snapshot !== null && snapshot.customerId !== event.customerId) return { outcome: 'unknown_customer' };
      const settled = await this.settleIn(trx, uid, { snapshot, subscriptionId: event.subscriptionId, event });
      return { outcome: 'applied', uid, ...settled };
    });
    if (result.outcome === 'unknown_customer') {
      // The event claimed a subscription of another customer: nothing of it may stay recorded.
      await this.db.deleteFrom('billing_events').where('event_id', '=', event.id).execute();
    }
    if (result.outcome === 'applied' && result.planChanged) await this.followInQueue(uid, result.plan);
    return result;
  }

  /**
   * The account's billing as the app shows it. A past-due subscription whose grace period is over is
   * settled here too (the periodic sweep may not have run yet): what the user reads is what they have.
   */
  async view(uid: string, emailHash: string | null): Promise<BillingView> {
    const now = this.context.now();
    let rows = await this.subscriptionsOf(this.db, uid);
    if (rows.some((row) => row.status === 'past_due' && this.graceEnd(row, now) <= now)) {
      await this.lapse(uid);
      rows = await this.subscriptionsOf(this.db, uid);
    }
    const account = await this.db
      .selectFrom('accounts')
      .select(['plan', 'plan_source'])
      .where('uid', '=', uid)
      .executeTakeFirst();
    const current = this.keptSubscription(rows, now, true) ?? null;
    const trialAvailable = !(await this.trialUsed(emailHash ?? (await this.emailHashOf(uid))));
    return {
      plan: account?.plan ?? 'free',
      source: account?.plan_source ?? 'default',
      subscription: current === null ? 'none' : subscriptionState(current),
      period: current?.period ?? null,
      currentPeriodEnd: current?.current_period_end.toISOString() ?? null,
      nextPlan: current?.pending_plan ?? null,
      graceEndsAt: current?.status === 'past_due' ? this.graceEnd(current, now).toISOString() : null,
      trialAvailable,
    };
  }

  /**
   * The periodic sweep: accounts past due beyond the grace period fall back to Free (their waiting jobs
   * with them). Returns the uids that fell back.
   */
  async lapseExpiredGrace(): Promise<string[]> {
    const cutoff = new Date(this.context.now().getTime() - this.options.graceDays * DAY_MS);
    const due = await this.db
      .selectFrom('billing_subscriptions as s')
      .innerJoin('accounts as a', 'a.uid', 's.uid')
      .select('s.uid')
      .distinct()
      .where('s.status', '=', 'past_due')
      .where('s.past_due_since', '<=', cutoff)
      .where('a.plan_source', '=', 'billing')
      .where('a.plan', '<>', 'free')
      .execute();
    const lapsed: string[] = [];
    for (const { uid } of due) {
      if (await this.lapse(uid)) lapsed.push(uid);
    }
    return lapsed;
  }

  /**
   * Cancels at Stripe the subscriptions closed accounts left (money first: nobody is billed for a deleted
   * account). Run after each closure's commit and periodically, so one that failed is tried again.
   * Returns how many are still left to cancel.
   */
  async cancelPending(limit = 50): Promise<{ canceled: string[]; left: number }> {
    const source = this.requireSource();
    const pending = await this.db
      .selectFrom('billing_cancellations')
      .select('subscription_id')
      .where('canceled_at', 'is', null)
      .orderBy('requested_at')
      .limit(limit)
      .execute();
    const canceled: string[] = [];
    let left = 0;
    for (const { subscription_id: id } of pending) {
      try {
        await source.cancelNow(id);
        await this.db
          .updateTable('billing_cancellations')
          .set({ canceled_at: this.context.now() })
          .where('subscription_id', '=', id)
          .execute();
        canceled.push(id);
      } catch (error) {
        left += 1;
        this.options.log.warn({ err: error, subscription: id }, 'could not cancel a closed account’s subscription yet');
      }
    }
    return { canceled, left };
  }

  /** The subscriptions closed accounts left that are not canceled at Stripe yet (for operators). */
  async pendingCancellations(): Promise<number> {
    const row = await this.db
      .selectFrom('billing_cancellations')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('canceled_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private requireSource(): SubscriptionSource {
    if (this.options.source === null) throw new Error('billing is not configured');
    return this.options.source;
  }

  private async ownerOf(customerId: string): Promise<string | 'closed' | null> {
    const customer = await this.db
      .selectFrom('billing_customers')
      .select('uid')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    if (customer !== undefined) return customer.uid;
    const closed = await this.db
      .selectFrom('billing_closed_customers')
      .select('customer_id')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return closed === undefined ? null : 'closed';
  }

  /** A closed account's customer paid or renewed after all: whatever still bills them ends now. */
  private async cancelForClosedAccount(source: SubscriptionSource, event: BillingEvent): Promise<EventOutcome> {
    const snapshot = await source.subscription(event.subscriptionId);
    if (snapshot !== null && snapshot.customerId === event.customerId && isLiveStatus(snapshot.status)) {
      await source.cancelNow(snapshot.id);
      this.options.log.warn(
        { subscription: snapshot.id, customer: event.customerId, event: event.id },
        'canceled a subscription of a closed account',
      );
    }
    return { outcome: 'closed_account' };
  }

  /** Falls back to Free an account whose past-due grace is over (in its own transaction). */
  private async lapse(uid: string): Promise<boolean> {
    const settled = await withAccountLock(this.db, uid, async (trx) => {
      const rows = await this.subscriptionsOf(trx, uid);
      const last = rows.find((row) => row.status === 'past_due');
      if (last === undefined) return null;
      return this.settleIn(trx, uid, { snapshot: null, subscriptionId: null, event: null });
    });
    if (settled === null || !settled.planChanged) return false;
    await this.followInQueue(uid, settled.plan);
    return true;
  }

  /**
   * The effect of a subscription's current state on its account: the subscription row as read (and, for a
   * second live one of the same account, its cancellation), the trial mark, the plan the account's kept
   * subscription pays for (Free once none is live), and a renewal's fresh allowance once per period.
   */
  private async settleIn(
    trx: Transaction<Database>,
    uid: string,
    input: { snapshot: SubscriptionSnapshot | null; subscriptionId: string | null; event: BillingEvent | null },
  ): Promise<Settlement> {
    const now = this.context.now();
    const { snapshot, event } = input;
    if (snapshot !== null) await this.recordSnapshot(trx, uid, snapshot);
    else if (input.subscriptionId !== null) {
      // Stripe no longer knows it: it has ended.
      await trx
        .updateTable('billing_subscriptions')
        .set({ status: 'canceled', updated_at: now, past_due_since: null })
        .where('subscription_id', '=', input.subscriptionId)
        .execute();
    }
    const rows = await this.subscriptionsOf(trx, uid);
    const kept = this.keptSubscription(rows, now, false);
    const target: PlanId = kept?.plan ?? 'free';
    const reason = event?.id ?? 'grace period over';
    const account = await trx
      .selectFrom('accounts')
      .select(['plan', 'plan_source'])
      .where('uid', '=', uid)
      .executeTakeFirst();
    const plan = account?.plan ?? 'free';
    const source = account?.plan_source ?? 'default';
    let planChanged = false;
    // Billing takes back only what billing gave: an operator's plan stays when no subscription pays.
    const takeBack = target === 'free' && source === 'billing';
    const give = target !== 'free' && (plan !== target || source !== 'billing');
    if (takeBack || give) {
      planChanged = (await this.accounts.setPlanIn(trx, uid, target, { source: 'billing', reason })).changed;
    }
    const renewed = await this.renewalIn(trx, uid, kept, event);
    return { plan: planChanged ? target : plan, planChanged, renewed };
  }

  /** `invoice.paid` for a new billing period of the kept subscription: a fresh allowance, once per period. */
  private async renewalIn(
    trx: Transaction<Database>,
    uid: string,
    kept: SubscriptionRow | undefined,
    event: BillingEvent | null,
  ): Promise<boolean> {
    if (event?.type !== 'invoice.paid' || event.billingReason !== 'subscription_cycle') return false;
    if (kept === undefined || kept.subscription_id !== event.subscriptionId || kept.status === 'past_due') return false;
    const marked = await trx
      .updateTable('billing_subscriptions')
      .set({ renewed_period_start: kept.current_period_start })
      .where('subscription_id', '=', kept.subscription_id)
      .where('renewed_period_start', '<', kept.current_period_start)
      .returning('subscription_id')
      .executeTakeFirst();
    if (marked === undefined) return false;
    await this.accounts.renewIn(trx, uid, event.id);
    return true;
  }

  private async recordSnapshot(trx: Transaction<Database>, uid: string, snapshot: SubscriptionSnapshot): Promise<void> {
    const now = this.context.now();
    const price = this.options.prices.get(snapshot.priceId);
    if (price === undefined) throw new UnknownPriceError(snapshot.priceId);
    const existing = await trx
      .selectFrom('billing_subscriptions')
      .selectAll()
      .where('subscription_id', '=', snapshot.id)
      .executeTakeFirst();
    let status = snapshot.status;
    const others = (await this.subscriptionsOf(trx, uid)).filter(
      (row) => row.subscription_id !== snapshot.id && this.isLive(row),
    );
    if (isLiveStatus(status) && others.length > 0 && (existing === undefined || !this.isLive(existing))) {
      // Two checkouts both paid: the first subscription stays, this second one ends now, before anything
      // else is recorded (should the cancel fail, nothing commits and Stripe's retry tries again).
      await this.requireSource().cancelNow(snapshot.id);
      this.options.log.warn(
        { uid, kept: others[0]!.subscription_id, canceled: snapshot.id },
        'a second subscription for one account was canceled at once; refund it at Stripe if it was charged',
      );
      status = 'canceled';
    }
    const values = {
      uid,
      customer_id: snapshot.customerId,
      price_id: snapshot.priceId,
      plan: price.plan,
      period: price.period,
      status,
      current_period_start: snapshot.currentPeriodStart,
      current_period_end: snapshot.currentPeriodEnd,
      cancel_at_period_end: snapshot.cancelAtPeriodEnd,
      pending_plan: this.pendingPlanOf(snapshot, price.plan),
      past_due_since: status === 'past_due' ? (existing?.past_due_since ?? now) : null,
      updated_at: now,
    };
    if (existing === undefined) {
      await trx
        .insertInto('billing_subscriptions')
        .values({
          ...values,
          subscription_id: snapshot.id,
          // Its first period came with the plan: only a later one is a renewal.
          renewed_period_start: snapshot.currentPeriodStart,
          recorded_at: now,
        })
        .execute();
    } else {
      await trx.updateTable('billing_subscriptions').set(values).where('subscription_id', '=', snapshot.id).execute();
    }
    if (snapshot.trialEnd !== null && status !== 'canceled') {
      const emailHash = await this.emailHashOf(uid, trx);
      if (emailHash !== null) {
        await trx
          .insertInto('billing_trials')
          .values({ email_hash: emailHash, subscription_id: snapshot.id, started_at: now })
          .onConflict((conflict) => conflict.column('email_hash').doNothing())
          .execute();
      }
    }
  }

  /**
   * The plan that follows the paid period: Free after a cancel, the scheduled price's plan after a held
   * downgrade (null when the schedule keeps the plan, e.g. monthly to yearly).
   */
  private pendingPlanOf(snapshot: SubscriptionSnapshot, plan: PlanId): PlanId | null {
    if (snapshot.cancelAtPeriodEnd) return 'free';
    if (snapshot.scheduledPriceId === null) return null;
    const scheduled = this.options.prices.get(snapshot.scheduledPriceId);
    if (scheduled === undefined) throw new UnknownPriceError(snapshot.scheduledPriceId);
    return scheduled.plan === plan ? null : scheduled.plan;
  }

  /**
   * The subscription the account's plan follows: the first recorded of those paid for (past due within
   * its grace included). With `orLatest`, the latest one otherwise (what the app shows after an end).
   */
  private keptSubscription(rows: SubscriptionRow[], now: Date, orLatest: boolean): SubscriptionRow | undefined {
    const live = rows.filter((row) => this.isLive(row, now));
    if (live.length > 0) return live.sort((a, b) => a.recorded_at.getTime() - b.recorded_at.getTime())[0];
    if (!orLatest) return undefined;
    return rows.sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime())[0];
  }

  private isLive(row: SubscriptionRow, now = this.context.now()): boolean {
    if (!isLiveStatus(row.status)) return false;
    return row.status !== 'past_due' || this.graceEnd(row, now) > now;
  }

  private graceEnd(row: SubscriptionRow, now: Date): Date {
    const since = row.past_due_since ?? now;
    return new Date(since.getTime() + this.options.graceDays * DAY_MS);
  }

  private subscriptionsOf(db: Kysely<Database> | Transaction<Database>, uid: string): Promise<SubscriptionRow[]> {
    return db.selectFrom('billing_subscriptions').selectAll().where('uid', '=', uid).execute();
  }

  private async emailHashOf(
    uid: string,
    db: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<string | null> {
    const row = await db.selectFrom('billing_customers').select('email_hash').where('uid', '=', uid).executeTakeFirst();
    return row?.email_hash ?? null;
  }

  private async followInQueue(uid: string, plan: PlanId): Promise<void> {
    await followPlanInQueue(
      { jobs: this.options.jobs, plans: this.options.plans, lifecycle: this.queueLine },
      uid,
      plan,
    );
  }
}

function isLiveStatus(status: string): boolean {
  return LIVE_STATUSES.includes(status);
}

function subscriptionState(row: SubscriptionRow): SubscriptionState {
  if (row.status === 'past_due') return 'past_due';
  if (row.cancel_at_period_end && isLiveStatus(row.status)) return 'canceled';
  if (row.status === 'active' || row.status === 'trialing') return row.status;
  return 'none';
}
