import { generationIdOfKey, type GenerationReads } from '@mediagen/core';
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
    const id = generationIdOfKey(key);
    const owned = id === null ? null : await this.reads.artifactOwnership(id);
    if (owned === null) return key;
    // The first file, or any image of a set, each with its own marked copy.
    const files = [{ key: owned.artifactKey, markedKey: owned.markedArtifactKey }, ...owned.outputs];
    const file = files.find((candidate) => candidate.key === key);
    if (file?.markedKey === undefined || file.markedKey === null) return key;
    return this.plans[owned.plan].watermark ? file.markedKey : key;
  }
}
