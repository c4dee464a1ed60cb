import { sql, type Kysely } from 'kysely';
import type { Database } from '@mediagen/core';
import type { GenerationKind, QueuePosition } from '@mediagen/shared';

/** Where the queues stand, as the ETA needs it. */
export interface QueueLoad {
  /** Jobs of the kind waiting for a worker, by priority from 0 to `upTo` (the index; lower runs first). */
  waitingByPriority(kind: GenerationKind, upTo: number): Promise<readonly number[]>;
  workerCount(kind: GenerationKind): Promise<number | null>;
  meanRunMs(kind: GenerationKind): Promise<number | null>;
  /** Whether the kind's provider is held back (spend controls): jobs wait with no estimate. */
  isHeldBack(kind: GenerationKind): Promise<boolean>;
}

/**
 * Places in line from the record: a queued generation's position is the number of queued generations of
 * its kind submitted before it, itself included. ETA = position × mean recent run time ÷ workers serving
 * the kind: rough on purpose (it knows neither each worker's concurrency nor how far running jobs are),
 * and null until a run of that kind has completed, or while no worker serves the kind.
 */
export class QueuePositions {
  constructor(
    private readonly db: Kysely<Database>,
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

  /**
   * The line as a submission of `kind` finds it, read from the queue (so a submission costs the same however
   * long the line) while the submission is charged, so that its answer waits for one round trip fewer.
   */
  line(kind: GenerationKind, upToPriority: number): Promise<readonly number[]> {
    return this.load.waitingByPriority(kind, upToPriority);
  }

  /** The place of a generation that joined `line` with `priority`: the jobs there that run before it, plus itself. */
  joined(kind: GenerationKind, line: readonly number[], priority: number): Promise<QueuePosition> {
    const ahead = line.slice(0, priority + 1).reduce((sum, count) => sum + count, 0);
    return this.eta(kind, ahead + 1);
  }

  /** Positions of those of `ids` still queued. */
  async of(ids: readonly string[]): Promise<Map<string, QueuePosition>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('generations as g')
      .select((eb) => [
        'g.id',
        'g.kind',
        eb
          .selectFrom('generations as q')
          .select((counter) => counter.fn.countAll<string>().as('ahead'))
          .whereRef('q.kind', '=', 'g.kind')
          .where('q.status', '=', 'queued')
          .where(sql<boolean>`(q.created_at, q.id) <= (g.created_at, g.id)`)
          .as('position'),
      ])
      .where('g.id', 'in', ids)
      .where('g.status', '=', 'queued')
      .execute();
    const positions = new Map<string, QueuePosition>();
    await Promise.all(
      rows.map(async (row) => positions.set(row.id, await this.eta(row.kind, Number(row.position ?? 1)))),
    );
    return positions;
  }
}
