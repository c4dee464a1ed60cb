import type { Kysely } from 'kysely';
import type { PlanId } from '@mediagen/shared';
import type { Database } from '../db/schema';

/** A generation's result files and its owner's plan now: which of the two a link serves. */
export interface ArtifactOwnership {
  artifactKey: string | null;
  markedArtifactKey: string | null;
  plan: PlanId;
}

export async function artifactOwnership(db: Kysely<Database>, id: string): Promise<ArtifactOwnership | null> {
  const row = await db
    .selectFrom('generations as g')
    .innerJoin('accounts as a', 'a.uid', 'g.uid')
    .select(['g.artifact_key', 'g.marked_artifact_key', 'a.plan'])
    .where('g.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return null;
  return { artifactKey: row.artifact_key, markedArtifactKey: row.marked_artifact_key, plan: row.plan };
}
