import { sql, type RawBuilder } from 'kysely';
import { GENERATION_KINDS, TOKEN_ENDING_SENTENCES, type PlanCatalogue, type TokenState } from '@mediagen/shared';
import { INSERT_LEDGER_LINES } from './lifecycle-sql';
import { allowanceColumn, planRulesTable, tokensColumn } from './plan-rules-table';

/** How a generation ends, as far as its token is concerned: with its result, or without. */
export type TokenEnding = 'completed' | 'unfinished';

/**
 * SQL: the token the generation row `alias` is left with if it ends now; the token rule of every ending,
 * written once. Only a held token moves. A completion spends it. Any other ending (a failure, a cancel, an
 * expiry, a job never enqueued, or a closure counting what the account would get back) gives it back while
 * no provider call that may cost money is outstanding (`paid_calls` = 0: none was made, or each was
 * refused before work), and spends it once one is: the provider did, or may have done, paid work. A waived
 * token (an operator's free retry) stays waived: its end moves none.
 */
export function tokenAtEnd(alias: string, ending: TokenEnding): RawBuilder<TokenState> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const settled =
    ending === 'completed' ? sql`'spent'` : sql`case when ${column('paid_calls')} = 0 then 'refunded' else 'spent' end`;
  return sql<TokenState>`case when ${column('token')} = 'held' then ${settled} else ${column('token')} end`;
}

/** SQL: the creator's sentence for the token state `token` leaves (TOKEN_ENDING_SENTENCES). */
export function tokenEndingSentence(token: RawBuilder<unknown>): RawBuilder<string> {
  const cases = Object.entries(TOKEN_ENDING_SENTENCES).map(([state, sentence]) => sql`when ${state} then ${sentence}`);
  return sql<string>`(case ${token} ${sql.join(cases, sql` `)} else '' end)`;
}

/**
 * SQL: the CTEs `account` and `ledger` that follow an ending, over `moved m` (the ended generation, its
 * token already settled by tokenAtEnd) and `owner w` (its account as the ending locked it). The in-flight
 * slot is freed; a refunded token goes back to the balance of its kind, never above the plan's allowance
 * (a refund after a reset goes to the current period); a ledger line says `refund` (+1) or `spend` (0).
 */
export function settlementSteps(plans: PlanCatalogue, reason: string, ts: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`account as (
            update accounts a set in_flight = w.in_flight - 1,
              ${sql.join(
                GENERATION_KINDS.map(
                  (kind) =>
                    sql`${tokensColumn(kind)} = case when m.kind = ${kind} and m.token = 'refunded'
                      then least(w.${tokensColumn(kind)} + 1, p.${allowanceColumn(kind)}) else w.${tokensColumn(kind)} end`,
                ),
              )}
            from moved m, owner w, ${planRulesTable(plans)}
            where a.uid = m.uid and w.uid = m.uid and p.plan = w.plan
          ), ledger as (
            ${INSERT_LEDGER_LINES}
            select m.uid, m.kind, m.id, case when m.token = 'refunded' then 'refund' else 'spend' end,
              case when m.token = 'refunded' then 1 else 0 end, ${reason}, ${ts}
            from moved m where m.token in ('refunded', 'spent')
          )`;
}
