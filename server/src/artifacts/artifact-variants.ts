import type { GenerationReads } from '@mediagen/core';
import type { PlanCatalogue } from '@mediagen/shared';

/**
 * Which file a link serves. Links always name the original; a generation whose output has a marked copy
 * (made at completion) is served marked while its owner's plan has the watermark, so an upgrade serves
 * the original from the next request and a downgrade the mark again, without re-rendering anything.
 */
export class ArtifactVariants {
  constructor(
    private readonly reads: Pick<GenerationReads, 'artifactOwnership'>,
    private readonly plans: PlanCatalogue,
  ) {}

  async served(key: string): Promise<string> {
    const id = key.slice(0, key.indexOf('.'));
    const owned = await this.reads.artifactOwnership(id);
    if (owned === null || owned.artifactKey !== key || owned.markedArtifactKey === null) return key;
    return this.plans[owned.plan].watermark ? owned.markedArtifactKey : key;
  }
}
