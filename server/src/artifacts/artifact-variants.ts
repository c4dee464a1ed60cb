import type { Kysely } from 'kysely';
import type { Database } from '@mediagen/core';
import type { PlanCatalogue } from '@mediagen/shared';

/**
 * Which file a link serves. Links always name the original; a generation whose output has a marked copy
 * (made at completion) is served marked while its owner's plan has the watermark, so an upgrade serves
 * the original from the next request and a downgrade the mark again, without re-rendering anything.
 */
export class ArtifactVariants {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly plans: PlanCatalogue,
  ) {}

  async served(key: string): Promise<string> {
    const id = key.slice(0, key.indexOf('.'));
    const row = await this.db
      .selectFrom('generations as g')
      .innerJoin('accounts as a', 'a.uid', 'g.uid')
      .select(['g.artifact_key', 'g.marked_artifact_key', 'a.plan'])
      .where('g.id', '=', id)
      .executeTakeFirst();
    if (row === undefined || row.artifact_key !== key || row.marked_artifact_key === null) return key;
    return this.plans[row.plan].watermark ? row.marked_artifact_key : key;
  }
}
