import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { PROVIDERS, type ProviderName } from '@mediagen/shared';
import type { Database } from '../db/schema';
import type { SpendLedger } from './spend-ledger';

export const GLOBAL_BUDGET = 'global';
export type BudgetScope = ProviderName | typeof GLOBAL_BUDGET;
export const BUDGET_SCOPES: readonly BudgetScope[] = [...PROVIDERS, GLOBAL_BUDGET];

export type PauseReason = 'kill_switch' | 'budget';

export interface SpendStatus {
  killSwitch: { on: boolean; since: string | null; reason: string | null };
  /** Daily budgets in USD, by scope; a scope without one is not listed. */
  budgets: Partial<Record<BudgetScope, number>>;
  today: { byProvider: Record<ProviderName, number>; total: number };
  /** Providers whose paid calls are held back now, and why. */
  paused: Partial<Record<ProviderName, PauseReason>>;
}

/** How long a budget decision is reused before the day's spend is read again (bounds the overshoot). */
const BUDGET_CHECK_MS = 2000;

const killSwitchKey = (prefix: string) => `${prefix}:spend:kill-switch`;

/**
 * The brakes on provider spend, shared by every process: budgets (PostgreSQL, set by operators) and the
 * kill switch (one Redis key, read before every paid call, so it stops new calls at once on every worker).
 */
export class SpendControls {
  private budgetDecision: { at: number; paused: Partial<Record<ProviderName, PauseReason>> } | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ledger: SpendLedger,
    private readonly clock: () => number = Date.now,
  ) {}

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
    if ((await this.redis.exists(killSwitchKey(this.prefix))) === 1) return 'kill_switch';
    const now = this.clock();
    if (this.budgetDecision === null || now - this.budgetDecision.at > BUDGET_CHECK_MS) {
      const { paused } = await this.status();
      this.budgetDecision = { at: now, paused };
    }
    return this.budgetDecision.paused[provider] === undefined ? null : 'budget';
  }

  async status(): Promise<SpendStatus> {
    const [raw, rows, today] = await Promise.all([
      this.redis.get(killSwitchKey(this.prefix)),
      this.db.selectFrom('spend_budgets').select(['scope', 'daily_usd']).execute(),
      this.ledger.today(),
    ]);
    const killSwitch = raw === null ? null : (JSON.parse(raw) as { since: string; reason: string });
    const budgets: Partial<Record<BudgetScope, number>> = {};
    for (const row of rows) budgets[row.scope as BudgetScope] = Number(row.daily_usd);
    const paused: Partial<Record<ProviderName, PauseReason>> = {};
    const globalSpent = budgets.global !== undefined && today.total >= budgets.global;
    for (const provider of PROVIDERS) {
      const budget = budgets[provider];
      if (killSwitch !== null) paused[provider] = 'kill_switch';
      else if (globalSpent || (budget !== undefined && today.byProvider[provider] >= budget))
        paused[provider] = 'budget';
    }
    return {
      killSwitch: { on: killSwitch !== null, since: killSwitch?.since ?? null, reason: killSwitch?.reason ?? null },
      budgets,
      today,
      paused,
    };
  }
}
