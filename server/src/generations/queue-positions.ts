import type { GenerationKind, QueuePosition } from '@mediagen/shared';
import type { QueueInspector } from '../queue/generation-queues';
import type { QueuePositions } from './generation-service';

/**
 * Position from the kind's wait list; ETA = position × mean recent run time ÷ workers serving the kind.
 * Rough on purpose: it does not know each worker's concurrency or how far the running jobs are, and it
 * is null until a run of that kind has completed or while no worker serves the kind.
 */
export class QueuePositionEstimator implements QueuePositions {
  constructor(private readonly inspector: QueueInspector) {}

  async of(kind: GenerationKind, id: string): Promise<QueuePosition | null> {
    const position = await this.inspector.waitingPosition(kind, id);
    if (position === null) return null;
    const mean = await this.inspector.meanRunMs(kind);
    if (mean === null) return { position, etaMs: null };
    const workers = await this.inspector.workerCount(kind);
    if (workers === null || workers === 0) return { position, etaMs: null };
    return { position, etaMs: Math.round((position * mean) / workers) };
  }
}
