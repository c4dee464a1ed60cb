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
 *
 * An image set holds `token_count` tokens: the `notMade` images (the provider filtered them, or their call
 * failed for good while others of the set were made) give theirs back whatever the ending, the others follow
 * the rule above, so a set reads `spent` while any of its tokens is, and `refunded` once all came back
 * (tokensReturnedAtEnd counts them).
 */
export function tokenAtEnd(alias: string, ending: TokenEnding, notMade = 0): RawBuilder<TokenState> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const noneMade = sql`${notMade}::int >= ${column('token_count')}`;
  const settled =
    ending === 'completed'
      ? sql`case when ${noneMade} then 'refunded' else 'spent' end`
      : sql`case when ${column('paid_calls')} = 0 or ${noneMade} then 'refunded' else 'spent' end`;
  return sql<TokenState>`case when ${column('token')} = 'held' then ${settled} else ${column('token')} end`;
}

/**
 * SQL: how many of the generation's `token_count` tokens come back if it ends now, by tokenAtEnd's rule:
 * all of them when it is refunded, else those of its images `notMade`; none of a waived or settled token.
 */
export function tokensReturnedAtEnd(alias: string, ending: TokenEnding, notMade = 0): RawBuilder<number> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<number>`case when ${column('token')} <> 'held' then ${column('tokens_returned')}
    when ${tokenAtEnd(alias, ending, notMade)} = 'refunded' then ${column('token_count')}
    else least(${notMade}::int, ${column('token_count')}) end`;
}

/** SQL: the creator's sentence for the token state `token` leaves (TOKEN_ENDING_SENTENCES). */
export function tokenEndingSentence(token: RawBuilder<unknown>): RawBuilder<string> {
  const cases = Object.entries(TOKEN_ENDING_SENTENCES).map(([state, sentence]) => sql`when ${state} then ${sentence}`);
  return sql<string>`(case ${token} ${sql.join(cases, sql` `)} else '' end)`;
}

/**
 * SQL: the CTEs `account` and `ledger` that follow an ending, over `moved m` (the ended generation, its
 * token already settled by tokenAtEnd and tokensReturnedAtEnd) and `owner w` (its account as the ending
 * locked it). The in-flight slot is freed; the tokens given back (`tokens_returned`: one, or a set's) go
 * back to the balance of their kind, never above the plan's allowance (a refund after a reset goes to the
 * current period); the ledger says `refund` (+ the tokens given back) and, for a token spent, `spend` (0).
 */
export function settlementSteps(plans: PlanCatalogue, reason: string, ts: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`account as (
            update accounts a set in_flight = w.in_flight - 1,
              ${sql.join(
                GENERATION_KINDS.map(
                  (kind) =>
                    sql`${tokensColumn(kind)} = case
                      when m.kind = ${kind} and m.token in ('refunded', 'spent') and m.tokens_returned > 0
                      then least(w.${tokensColumn(kind)} + m.tokens_returned, p.${allowanceColumn(kind)})
                      else w.${tokensColumn(kind)} end`,
                ),
              )}
            from moved m, owner w, ${planRulesTable(plans)}
            where a.uid = m.uid and w.uid = m.uid and p.plan = w.plan
          ), ledger as (
            ${INSERT_LEDGER_LINES}
            select m.uid, m.kind, m.id, 'refund', m.tokens_returned, ${reason}, ${ts}
            from moved m where m.token in ('refunded', 'spent') and m.tokens_returned > 0
            union all
            select m.uid, m.kind, m.id, 'spend', 0, ${reason}, ${ts}
            from moved m where m.token = 'spent'
          )`;
}
