import { toRecord, type GenerationRecord } from '@mediagen/core';
import type { GenerationKind, GenerationStatus, TokenState } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';

export interface GenerationSummary {
  id: string;
  kind: GenerationKind;
  status: GenerationStatus;
  token: TokenState;
  uid: string;
  createdAt: string;
  taskId?: string;
  /** What the creator read. */
  error?: string;
  /** The provider's answer behind the failure (operators only). */
  providerError?: string;
}

export interface FindResult {
  by: 'user' | 'task';
  value: string;
  generations: GenerationSummary[];
}

export function summarize(record: GenerationRecord): GenerationSummary {
  return {
    id: record.id,
    kind: record.kind,
    status: record.status,
    token: record.token,
    uid: record.uid,
    createdAt: record.createdAt.toISOString(),
    ...(record.providerTaskId === null ? {} : { taskId: record.providerTaskId }),
    ...(record.error === null ? {} : { error: `${record.error.code}: ${record.error.message}` }),
    ...(record.providerError === null ? {} : { providerError: record.providerError }),
  };
}

/** A user's generations from the record, newest first (at most `limit`). */
export async function userGenerations(ctx: OpsContext, uid: string, limit: number): Promise<GenerationRecord[]> {
  const rows = await ctx.database.db
    .selectFrom('generations')
    .selectAll()
    .where('uid', '=', uid)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

export async function findJobs(
  ctx: OpsContext,
  by: 'user' | 'task',
  value: string,
  limit: number,
): Promise<FindResult> {
  if (by === 'user') {
    return { by, value, generations: (await userGenerations(ctx, value, limit)).map(summarize) };
  }
  const rows = await ctx.database.db
    .selectFrom('generations')
    .selectAll()
    .where('provider_task_id', '=', value)
    .execute();
  return { by, value, generations: rows.map(toRecord).map(summarize) };
}
