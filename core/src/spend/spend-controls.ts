import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { PROVIDERS, type ProviderName } from '@mediagen/shared';
import type { Database } from '../db/schema';
import { ProviderCredit, type OutOfCredit } from './provider-credit';
import type { SpendLedger } from './spend-ledger';

export const GLOBAL_BUDGET = 'global';
export type BudgetScope = ProviderName | typeof GLOBAL_BUDGET;
export const BUDGET_SCOPES: readonly BudgetScope[] = [...PROVIDERS, GLOBAL_BUDGET];

/** Why a provider's paid calls are held back; `out_of_credit`: its account refused for want of credit. */
export type PauseReason = 'kill_switch' | 'budget' | 'out_of_credit';

export interface SpendStatus {
  killSwitch: { on: boolean; since: string | null; reason: string | null };
  /** Daily budgets in USD, by scope; a scope without one is not listed. */
  budgets: Partial<Record<BudgetScope, number>>;
  today: { byProvider: Record<ProviderName, number>; total: number };
  /** Provider accounts marked out of credit, until an operator clears the mark or a balance check does. */
  outOfCredit: Partial<Record<ProviderName, OutOfCredit>>;
  /** Providers whose paid calls are held back now, and why (the kill switch first, then credit, then budgets). */
  paused: Partial<Record<ProviderName, PauseReason>>;
}

/** How long a budget decision is reused before the day's spend is read again (bounds the overshoot). */
const BUDGET_CHECK_MS = 2000;

const killSwitchKey = (prefix: string) => `${prefix}:spend:kill-switch`;

/**
 * The brakes on provider spend, shared by every process: budgets (PostgreSQL, set by operators), the
 * kill switch and the out-of-credit marks (Redis keys, read before every paid call, so they stop new calls
 * at once on every worker).
 */
export class SpendControls {
  private budgetDecision: { at: number; paused: Partial<Record<ProviderName, PauseReason>> } | null = null;
  readonly credit: ProviderCredit;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ledger: SpendLedger,
    private readonly clock: () => number = Date.now,
  ) {
    this.credit = new ProviderCredit(redis, prefix, clock);
  }

  async setKillSwitch(on: boolean, reason: string): Promise<void> {
    if (on) {
      await this.redis.set(
        killSwitchKey(this.prefix),
        JSON.stringify({ since: new Date(this.clock()).toISOString(), reason }),
      );
    } else {
      await this.redis.del(killSwitchKey(this.prefix));
    }
  }

  /** null: no budget for the scope. */
  async setBudget(scope: BudgetScope, dailyUsd: number | null): Promise<void> {
    if (dailyUsd === null) {
      await this.db.deleteFrom('spend_budgets').where('scope', '=', scope).execute();
    } else {
      await this.db
        .insertInto('spend_budgets')
        .values({ scope, daily_usd: dailyUsd, updated_at: new Date(this.clock()) })
        .onConflict((conflict) =>
          conflict.column('scope').doUpdateSet({ daily_usd: dailyUsd, updated_at: new Date(this.clock()) }),
        )
        .execute();
    }
    this.budgetDecision = null;
  }

  /** Why a paid call to `provider` must wait now; null when it may go. */
  async holdBack(provider: ProviderName): Promise<PauseReason | null> {
    const [killSwitch, outOfCredit] = await Promise.all([
      this.redis.exists(killSwitchKey(this.prefix)),
      this.credit.isOutOfCredit(provider),
    ]);
    if (killSwitch === 1) return 'kill_switch';
    if (outOfCredit) return 'out_of_credit';
    const now = this.clock();
    if (this.budgetDecision === null || now - this.budgetDecision.at > BUDGET_CHECK_MS) {
      const { paused } = await this.status();
      this.budgetDecision = { at: now, paused };
    }
    return this.budgetDecision.paused[provider] === 'budget' ? 'budget' : null;
  }

  async status(): Promise<SpendStatus> {
    const [raw, rows, today, outOfCredit] = await Promise.all([
      this.redis.get(killSwitchKey(this.prefix)),
      this.db.selectFrom('spend_budgets').select(['scope', 'daily_usd']).execute(),
      this.ledger.today(),
      this.credit.marked(),
    ]);
    const killSwitch = raw === null ? null : (JSON.parse(raw) as { since: string; reason: string });
    const budgets: Partial<Record<BudgetScope, number>> = {};
    for (const row of rows) budgets[row.scope as BudgetScope] = Number(row.daily_usd);
    const paused: Partial<Record<ProviderName, PauseReason>> = {};
    const globalSpent = budgets.global !== undefined && today.total >= budgets.global;
    for (const provider of PROVIDERS) {
      const budget = budgets[provider];
      if (killSwitch !== null) paused[provider] = 'kill_switch';
      else if (outOfCredit[provider] !== undefined) paused[provider] = 'out_of_credit';
      else if (globalSpent || (budget !== undefined && today.byProvider[provider] >= budget))
        paused[provider] = 'budget';
    }
    return {
      killSwitch: { on: killSwitch !== null, since: killSwitch?.since ?? null, reason: killSwitch?.reason ?? null },
      budgets,
      today,
      outOfCredit,
      paused,
    };
  }
}
