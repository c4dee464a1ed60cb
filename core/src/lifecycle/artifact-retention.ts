import { sql } from 'kysely';
import type { PlanId } from '@mediagen/shared';
import type { LifecycleContext } from './lifecycle-context';
import type { CompletedOutput } from '../queue/generation-jobs';
import { artifactKeys, keysOfOutputs } from './generation-record';
import { announce } from './lifecycle-sql';

/**
 * Retention: the artifacts of completed generations created before their plan's cutoff are let go, at
 * most `limit` at a time, oldest first. Each record stays, now saying when its result expired (a new
 * version, announced); the caller deletes the returned files (every image of a set) after this has committed.
 */
export async function expireArtifacts(
  context: LifecycleContext,
  cutoffs: Partial<Record<PlanId, Date>>,
  limit: number,
): Promise<{ id: string; artifactKeys: string[]; traceParent: string | null }[]> {
  const plans = Object.entries(cutoffs).filter((entry): entry is [PlanId, Date] => entry[1] !== undefined);
  if (plans.length === 0) return [];
  const now = context.now();
  const result = await sql<{
    id: string;
    artifact_key: string;
    marked_artifact_key: string | null;
    outputs: CompletedOutput[] | null;
    trace_parent: string | null;
  }>`
      with due as (
        select g.id, g.artifact_key, g.marked_artifact_key, g.outputs from generations g join accounts a on a.uid = g.uid
        where g.artifact_key is not null and (${sql.join(
          plans.map(([plan, cutoff]) => sql`(a.plan = ${plan} and g.created_at < ${cutoff})`),
          sql` or `,
        )})
        order by g.created_at limit ${limit}
        for update of g skip locked
      ), expired as (
        update generations g set artifact_key = null, artifact_mime = null, artifact_bytes = null,
          marked_artifact_key = null, content_credentials = null, outputs = null, artifact_expired_at = ${now}, version = g.version + 1, updated_at = ${now}
        from due d where g.id = d.id
        returning g.*, d.artifact_key as old_key, d.marked_artifact_key as old_marked_key, d.outputs as old_outputs
      )
      select e.id, e.old_key as artifact_key, e.old_marked_key as marked_artifact_key, e.old_outputs as outputs,
        e.trace_parent, ${announce('e')}
      from expired e`.execute(context.db);
  return result.rows.map((row) => ({
    id: row.id,
    // Every file of a set: the first is also in `artifact_key`.
    artifactKeys: [
      ...new Set([
        ...artifactKeys({ key: row.artifact_key, markedKey: row.marked_artifact_key, mimeType: '', bytes: 0 }),
        ...keysOfOutputs(row.outputs),
      ]),
    ],
    traceParent: row.trace_parent,
  }));
}
