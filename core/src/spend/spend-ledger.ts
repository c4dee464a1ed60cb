import { sql, type Kysely } from 'kysely';
import { PROVIDERS, type GenerationKind, type PlanId, type ProviderName } from '@mediagen/shared';
import type { Database } from '../db/schema';

/** The UTC day of a moment, as the spend tables key it. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export interface RecordedSpend {
  uid: string;
  kind: GenerationKind;
  plan: PlanId;
}

export type SpendGrouping = 'day' | 'provider' | 'kind' | 'plan' | 'user';

export interface SpendRow {
  /** The group's value: a day, a provider, a kind, a plan or a user id. */
  key: string;
  usd: number;
  calls: number;
}

/**
 * What the providers are estimated to have cost: written once per paid call a provider accepted (on the
 * generation, the day's provider totals and the user's day), read by budgets, the per-user cap, the queue
 * CLI and the admin API. Not part of the token rules: spend is money we pay, tokens what users have.
 */
export class SpendLedger {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Adds a paid call's estimated cost. A generation deleted while its call was out is gone, but the call
   * was paid for: it still counts in the provider's day, and in its owner's while the account exists.
   */
  async record(
    generation: { id: string; uid: string; kind: GenerationKind },
    provider: ProviderName,
    usd: number,
  ): Promise<RecordedSpend> {
    const day = utcDay(this.clock());
    return this.db.transaction().execute(async (trx) => {
      // The account before the generation, the order of every ending and of the closure: taken the other
      // way round, an ending holding the account and waiting for the generation deadlocks with this. Held
      // against a closure under way too: one that commits first leaves no account to add a day to.
      const account = await sql<{ plan: PlanId }>`
        select plan from accounts where uid = ${generation.uid} for key share`.execute(trx);
      const owner = { plan: account.rows[0]?.plan ?? 'free', hasAccount: account.rows.length > 0 };
      const { rows } = await sql<{ kind: GenerationKind }>`
        with g as (
          update generations set cost_usd = coalesce(cost_usd, 0) + ${usd} where id = ${generation.id}
          returning kind
        ), caller as (
          select kind from g
          union all
          select ${generation.kind} where not exists (select 1 from g)
        ), by_provider as (
          insert into provider_spend_daily (day, provider, kind, plan, usd, calls)
          select ${day}, ${provider}, c.kind, ${owner.plan}, ${usd}, 1 from caller c
          on conflict (day, provider, kind, plan) do update
            set usd = provider_spend_daily.usd + excluded.usd, calls = provider_spend_daily.calls + 1
        ), by_user as (
          insert into user_spend_daily (uid, day, usd) select ${generation.uid}, ${day}, ${usd} where ${owner.hasAccount}
          on conflict (uid, day) do update set usd = user_spend_daily.usd + excluded.usd
        )
        select kind from caller`.execute(trx);
      return { uid: generation.uid, kind: rows[0]!.kind, plan: owner.plan };
    });
  }

  /** Today's (UTC) estimated spend per provider, and in all. */
  async today(): Promise<{ byProvider: Record<ProviderName, number>; total: number }> {
    const rows = await this.db
      .selectFrom('provider_spend_daily')
      .select(['provider', (eb) => eb.fn.sum<string>('usd').as('usd')])
      .where('day', '=', utcDay(this.clock()))
      .groupBy('provider')
      .execute();
    const byProvider = Object.fromEntries(PROVIDERS.map((provider) => [provider, 0])) as Record<ProviderName, number>;
    for (const row of rows) byProvider[row.provider as ProviderName] = Number(row.usd);
    return { byProvider, total: Object.values(byProvider).reduce((sum, usd) => sum + usd, 0) };
  }

  /** What a user has cost today. */
  async userToday(uid: string): Promise<number> {
    const row = await this.db
      .selectFrom('user_spend_daily')
      .select('usd')
      .where('uid', '=', uid)
      .where('day', '=', utcDay(this.clock()))
      .executeTakeFirst();
    return Number(row?.usd ?? 0);
  }

  /** Totals of the last `days` days (today included), grouped; the largest first. */
  async totals(by: SpendGrouping, days: number, limit = 100): Promise<SpendRow[]> {
    const since = utcDay(this.clock() - (days - 1) * 24 * 60 * 60 * 1000);
    if (by === 'user') {
      const rows = await this.db
        .selectFrom('user_spend_daily')
        .select(['uid as key', (eb) => eb.fn.sum<string>('usd').as('usd')])
        .where('day', '>=', since)
        .groupBy('uid')
        .orderBy('usd', 'desc')
        .limit(limit)
        .execute();
      if (rows.length === 0) return [];
      // Per-user rows count no calls; the generations say how many of theirs were paid for.
      const calls = await this.db
        .selectFrom('generations')
        .select(['uid', (eb) => eb.fn.countAll<string>().as('calls')])
        .where(
          'uid',
          'in',
          rows.map((row) => row.key),
        )
        .where('cost_usd', 'is not', null)
        .where('created_at', '>=', new Date(`${since}T00:00:00Z`))
        .groupBy('uid')
        .execute();
      const callsOf = new Map(calls.map((row) => [row.uid, Number(row.calls)]));
      return rows.map((row) => ({ key: row.key, usd: Number(row.usd), calls: callsOf.get(row.key) ?? 0 }));
    }
    const column = by === 'day' ? sql<string>`day::text` : sql.ref<string>(by);
    const rows = await this.db
      .selectFrom('provider_spend_daily')
      .select([
        column.as('key'),
        (eb) => eb.fn.sum<string>('usd').as('usd'),
        (eb) => eb.fn.sum<string>('calls').as('calls'),
      ])
      .where('day', '>=', since)
      .groupBy(column)
      // Days newest first; anything else the most expensive first.
      .orderBy(by === 'day' ? sql`1` : sql`2`, 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ key: row.key, usd: Number(row.usd), calls: Number(row.calls) }));
  }
}
