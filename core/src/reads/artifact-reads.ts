import type { Kysely } from 'kysely';
import type { PlanId } from '@mediagen/shared';
import type { Database } from '../db/schema';
import { isMissingOutput, type CompletedOutput, type StoredOutput } from '../queue/generation-jobs';

/** A generation's result files and its owner's plan now: which of the two a link serves. */
export interface ArtifactOwnership {
  artifactKey: string | null;
  markedArtifactKey: string | null;
  /** Each file of an image set (the first is also `artifactKey`): the original and its marked copy. */
  outputs: { key: string; markedKey: string | null }[];
  plan: PlanId;
}

export async function artifactOwnership(db: Kysely<Database>, id: string): Promise<ArtifactOwnership | null> {
  const row = await db
    .selectFrom('generations as g')
    .innerJoin('accounts as a', 'a.uid', 'g.uid')
    .select(['g.artifact_key', 'g.marked_artifact_key', 'g.outputs', 'a.plan'])
    .where('g.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return null;
  const outputs = ((row.outputs ?? []) as CompletedOutput[]).filter(
    (output): output is StoredOutput => !isMissingOutput(output),
  );
  return {
    artifactKey: row.artifact_key,
    markedArtifactKey: row.marked_artifact_key,
    outputs: outputs.map((output) => ({ key: output.key, markedKey: output.markedKey })),
    plan: row.plan,
  };
}
