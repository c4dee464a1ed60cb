import type { UnfinishedStatus } from '@mediagen/core';
import type { GenerationKind, TokenBalance, TokenState } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';

export interface DrainedGeneration {
  id: string;
  kind: GenerationKind;
  /** What it was when drained. */
  was: UnfinishedStatus;
  outcome: 'canceled' | 'ended first';
  token: TokenState;
  jobRemoved: boolean;
}

export interface DrainResult {
  uid: string;
  generations: DrainedGeneration[];
  tokens: TokenBalance;
}

/**
 * Stops everything a user has in flight, as their own cancels would: each queued or active generation is
 * canceled through the lifecycle (so it stays in their history as canceled, and its token is refunded or
 * spent by the usual rules: an operator's drain never hands out a paid generation for free), its waiting
 * job leaves the queue, and a worker running one aborts its provider call at once.
 */
export async function drainUser(ctx: OpsContext, uid: string, reason: string): Promise<DrainResult> {
  const inFlight = await ctx.reads.inFlightOf(uid);
  const generations: DrainedGeneration[] = [];
  for (const { id, kind, status } of inFlight) {
    const canceled = await ctx.lifecycle.cancel(id, { by: 'operator', reason });
    const { jobRemoved } = canceled.ok ? await ctx.jobs.canceled({ id, kind }) : { jobRemoved: false };
    generations.push({
      id,
      kind,
      was: status,
      outcome: canceled.ok ? 'canceled' : 'ended first',
      token: canceled.ok ? canceled.generation.token : (canceled.current?.token ?? 'held'),
      jobRemoved,
    });
  }
  return { uid, generations, tokens: (await ctx.lifecycle.balance(uid)).tokens };
}
