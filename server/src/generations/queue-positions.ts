import type { GenerationReads } from '@mediagen/core';
import type { GenerationKind, QueuePosition } from '@mediagen/shared';

/** Where the queues stand, as the ETA needs it. */
export interface QueueLoad {
  workerCount(kind: GenerationKind): Promise<number | null>;
  meanRunMs(kind: GenerationKind): Promise<number | null>;
  /** Whether the kind's provider is held back (spend controls): jobs wait with no estimate. */
  isHeldBack(kind: GenerationKind): Promise<boolean>;
}

/**
 * Places in line, in the order workers take jobs: by priority (the owner's plan's, or the top one once
 * the priority aging moved the job up), then in the order jobs joined that level. From the record, a queued
 * generation's position is the number of queued generations of its kind that run before it, itself
 * included. ETA = position × mean recent run time ÷ workers serving the kind: rough
 * on purpose (it knows neither each worker's concurrency nor how far running jobs are), and null until a
 * run of that kind has completed, or while no worker serves the kind.
 */
export class QueuePositions {
  constructor(
    private readonly reads: Pick<GenerationReads, 'placesInLine'>,
    private readonly load: QueueLoad,
  ) {}

  async eta(kind: GenerationKind, position: number): Promise<QueuePosition> {
    const [mean, workers, held] = await Promise.all([
      this.load.meanRunMs(kind),
      this.load.workerCount(kind),
      this.load.isHeldBack(kind),
    ]);
    if (held) return { position, etaMs: null, busy: true };
    const etaMs = mean === null || workers === null || workers === 0 ? null : Math.round((position * mean) / workers);
    return { position, etaMs };
  }

  /** Positions and ETAs of those of `ids` still queued (GenerationReads.placesInLine). */
  async of(ids: readonly string[]): Promise<Map<string, QueuePosition>> {
    const places = await this.reads.placesInLine(ids);
    const positions = new Map<string, QueuePosition>();
    await Promise.all(places.map(async (place) => positions.set(place.id, await this.eta(place.kind, place.position))));
    return positions;
  }
}
