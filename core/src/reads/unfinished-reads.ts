import type { Kysely } from 'kysely';
import type { GenerationKind, GenerationStatus, PlanId } from '@mediagen/shared';
import type { Database } from '../db/schema';

/** The statuses of a generation not yet ended: it should have a job in its queue. */
export type UnfinishedStatus = Extract<GenerationStatus, 'queued' | 'active'>;
const UNFINISHED: readonly UnfinishedStatus[] = ['queued', 'active'];

/** What the reconciler needs of a generation to bring its job back or end it. */
export interface UntouchedGeneration {
  id: string;
  kind: GenerationKind;
  uid: string;
  status: UnfinishedStatus;
  startedAt: Date | null;
  queuePriority: number | null;
  /** The request as recorded: a video's model decides how long its job may run. */
  request: Record<string, unknown>;
  /** The owner's plan; null for an owner with no account row. */
  plan: PlanId | null;
  /** Its submission's traceparent (tracing/spans.ts): the reconciler's span links to it. */
  traceParent: string | null;
}

/** Unfinished generations untouched since `before`, least recently touched first, at most `limit`. */
export async function untouchedUnfinished(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<UntouchedGeneration[]> {
  const rows = await db
    .selectFrom('generations as g')
    .leftJoin('accounts as a', 'a.uid', 'g.uid')
    .select([
      'g.id',
      'g.kind',
      'g.uid',
      'g.status',
      'g.started_at',
      'g.queue_priority',
      'g.request',
      'a.plan',
      'g.trace_parent',
    ])
    .where('g.status', 'in', UNFINISHED)
    .where('g.updated_at', '<', before)
    .orderBy('g.updated_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    uid: row.uid,
    status: row.status as UnfinishedStatus,
    startedAt: row.started_at,
    queuePriority: row.queue_priority,
    request: row.request,
    plan: row.plan,
    traceParent: row.trace_parent,
  }));
}

/** How many generations of each kind the record holds queued and active (kinds with none are absent). */
export async function unfinishedCounts(
  db: Kysely<Database>,
): Promise<{ kind: GenerationKind; status: UnfinishedStatus; count: number }[]> {
  const rows = await db
    .selectFrom('generations')
    .select(['kind', 'status', (eb) => eb.fn.countAll<string>().as('count')])
    .where('status', 'in', UNFINISHED)
    .groupBy(['kind', 'status'])
    .execute();
  return rows.map((row) => ({ kind: row.kind, status: row.status as UnfinishedStatus, count: Number(row.count) }));
}

/** A user's queued and active generations, oldest first. */
export async function inFlightOf(
  db: Kysely<Database>,
  uid: string,
): Promise<{ id: string; kind: GenerationKind; status: UnfinishedStatus }[]> {
  const rows = await db
    .selectFrom('generations')
    .select(['id', 'kind', 'status'])
    .where('uid', '=', uid)
    .where('status', 'in', UNFINISHED)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({ id: row.id, kind: row.kind, status: row.status as UnfinishedStatus }));
}
