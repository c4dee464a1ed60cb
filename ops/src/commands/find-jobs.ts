import { traceIdOf, type GenerationRecord } from '@mediagen/core';
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
  /** The trace of its submission and runs in the tracing backend, when it was traced. */
  traceId?: string;
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
    ...(traceIdOf(record.traceParent) === null ? {} : { traceId: traceIdOf(record.traceParent)! }),
  };
}

export async function findJobs(
  ctx: OpsContext,
  by: 'user' | 'task',
  value: string,
  limit: number,
): Promise<FindResult> {
  if (by === 'user') {
    return { by, value, generations: (await ctx.reads.latestOf(value, limit)).map(summarize) };
  }
  return { by, value, generations: (await ctx.reads.byProviderTask(value)).map(summarize) };
}
