import type { Redis } from 'ioredis';
import { latestProgress, type GenerationRecord, generationView, stateOfRecord, submissionOf } from '@mediagen/core';
import type { Generation, QueuePosition } from '@mediagen/shared';
import type { QueuePositions } from './queue-positions';

/**
 * Records as the contract's `Generation`s, with what the record does not hold: the signed artifact URL,
 * the latest progress of a running one (ephemeral, from Redis) and the place in line of a queued one.
 */
export class GenerationViews {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly positions: QueuePositions,
    readonly artifactUrl: (key: string) => string,
  ) {}

  async one(record: GenerationRecord): Promise<Generation> {
    const [view] = await this.many([record]);
    return view!;
  }

  async many(records: readonly GenerationRecord[]): Promise<Generation[]> {
    const running = records.filter((record) => record.status === 'active').map((record) => record.id);
    const waiting = records.filter((record) => record.status === 'queued').map((record) => record.id);
    // Progress and places in line help the page; without them it is still right, so a hiccup costs nothing.
    const [progress, queues] = await Promise.all([
      latestProgress(this.redis, this.prefix, running).catch(() => new Map()),
      this.positions.of(waiting).catch(() => new Map<string, QueuePosition>()),
    ]);
    return records.map((record) => {
      const published = progress.get(record.id);
      return generationView(
        stateOfRecord(record),
        submissionOf(record.kind, record.prompt, record.request),
        this.artifactUrl,
        {
          // Progress of an earlier version of the same run still counts: the run goes on across them.
          progress: published !== undefined && published.version <= record.version ? published.progress : undefined,
          queue: queues.get(record.id),
        },
      );
    });
  }
}
