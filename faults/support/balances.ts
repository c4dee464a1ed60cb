import { expect } from 'vitest';
import type { RecordDatabase } from '@mediagen/core';
import { GENERATION_KINDS, TOKEN_ALLOWANCE } from '@mediagen/shared';

type Db = RecordDatabase['db'];

/**
 * For every user and kind: tokens left + tokens spent + tokens held by generations in flight = the
 * allowance, and nothing is left in flight. `uids` are every account the test made.
 */
export async function expectBalancesAddUp(db: Db, uids: readonly string[]): Promise<void> {
  const accounts = await db.selectFrom('accounts').selectAll().execute();
  const byToken = await db
    .selectFrom('generations')
    .select((eb) => ['uid', 'kind', 'token', eb.fn.countAll<string>().as('count')])
    .groupBy(['uid', 'kind', 'token'])
    .execute();
  const count = (uid: string, kind: string, token: string) =>
    Number(byToken.find((row) => row.uid === uid && row.kind === kind && row.token === token)?.count ?? 0);
  expect(accounts.map((account) => account.uid).sort()).toEqual([...uids].sort());
  for (const account of accounts) {
    for (const kind of GENERATION_KINDS) {
      const left = account[`${kind}_tokens`];
      expect(
        left + count(account.uid, kind, 'spent') + count(account.uid, kind, 'held'),
        `${account.uid} ${kind}`,
      ).toBe(TOKEN_ALLOWANCE[kind]);
    }
    expect(account.in_flight).toBe(0);
  }
}

/**
 * The ledger has each generation's token charged once and settled once, the way its end says: spent
 * when it completed, spent or refunded when it failed or was canceled.
 */
export async function expectSettledOnce(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const generations = await db
    .selectFrom('generations')
    .select(['id', 'status', 'token'])
    .where('id', 'in', [...ids])
    .execute();
  const movements = await db
    .selectFrom('token_ledger')
    .select(['generation_id', 'movement'])
    .where('generation_id', 'in', [...ids])
    .execute();
  const describe = (id: string) => {
    const generation = generations.find((row) => row.id === id);
    const of = (movement: string) =>
      movements.filter((row) => row.generation_id === id && row.movement === movement).length;
    return `${id}: ${generation?.status} ${generation?.token}, charged ${of('charge')}, spent ${of('spend')}, refunded ${of('refund')}`;
  };
  const expected = (id: string) => {
    const generation = generations.find((row) => row.id === id);
    const spent = generation?.token === 'spent' ? 1 : 0;
    return `${id}: ${generation?.status} ${generation?.token}, charged 1, spent ${spent}, refunded ${1 - spent}`;
  };
  expect(ids.map(describe)).toEqual(ids.map(expected));
  for (const generation of generations) {
    if (generation.status === 'completed') expect(generation.token, generation.id).toBe('spent');
    else expect(['spent', 'refunded'], generation.id).toContain(generation.token);
  }
}
