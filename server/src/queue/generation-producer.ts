import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  generationJobOptions,
  naturalBatches,
  queueName,
  type GenerationJobData,
  type JobRetention,
  type RetryPolicy,
} from '@mediagen/core';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';

export interface QueueLogger {
  warn(details: object, message: string): void;
}

/** A job that waits (not yet taken by a worker) can be taken out of its queue; a running one cannot. */
const REMOVABLE_STATES: ReadonlySet<string> = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * The server's side of BullMQ, through its public API only: one Queue per kind on the producer
 * connection (which fails fast while Redis is down, so a request gets a 503 instead of hanging).
 */
export class GenerationProducer {
  private readonly queues: Record<GenerationKind, Queue<GenerationJobData>>;
  /** Adds that arrive together go to Redis in one round trip (`addBulk`), per queue. */
  private readonly adders: Record<GenerationKind, (job: { id: string; priority: number }) => Promise<void>>;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly retry: RetryPolicy,
    private readonly retention: JobRetention,
    log: QueueLogger,
  ) {
    this.queues = Object.fromEntries(
      GENERATION_KINDS.map((kind) => {
        const queue = new Queue<GenerationJobData>(queueName(kind), { connection, prefix });
        queue.on('error', (err) => log.warn({ err, kind }, 'queue error'));
        return [kind, queue];
      }),
    ) as Record<GenerationKind, Queue<GenerationJobData>>;
    this.adders = Object.fromEntries(
      GENERATION_KINDS.map((kind) => [
        kind,
        naturalBatches((jobs: readonly { id: string; priority: number }[]) => this.addAll(kind, jobs)),
      ]),
    ) as GenerationProducer['adders'];
  }

  /** Enqueues the work of a recorded generation; the job id is the generation id, so it is added once. */
  add(generation: { id: string; kind: GenerationKind; uid: string }, priority: number): Promise<void> {
    return this.adders[generation.kind]({ id: generation.id, priority });
  }

  /**
   * One pipeline for the lot (a lone job goes on its own: setting up a pipeline costs more than it saves
   * for one). Should the pipeline fail, every job in it counts as not added; some may have been, and the
   * worker finds their generations failed and lets them go, as after any add whose answer was lost.
   */
  private async addAll(kind: GenerationKind, jobs: readonly { id: string; priority: number }[]): Promise<void[]> {
    const queue = this.queues[kind];
    const options = ({ id, priority }: { id: string; priority: number }) =>
      generationJobOptions(id, this.retry, this.retention, priority);
    if (jobs.length === 1) await queue.add(kind, { kind }, options(jobs[0]!));
    else await queue.addBulk(jobs.map((job) => ({ name: kind, data: { kind }, opts: options(job) })));
    return jobs.map(() => undefined);
  }

  /** Takes a canceled generation's job out of its queue if no worker holds it yet; true when it did. */
  async removeWaiting(kind: GenerationKind, id: string): Promise<boolean> {
    const queue = this.queues[kind];
    if (!REMOVABLE_STATES.has(await queue.getJobState(id))) return false;
    return (await queue.remove(id)) === 1;
  }

  /**
   * Takes a deleted generation's job out of its queue in whatever state BullMQ keeps it (waiting, delayed,
   * finished); false when a worker holds it, which lets go by itself (its record is gone).
   */
  async forget(kind: GenerationKind, id: string): Promise<boolean> {
    return (await this.queues[kind].remove(id)) === 1;
  }

  queue(kind: GenerationKind): Queue<GenerationJobData> {
    return this.queues[kind];
  }

  /** The BullMQ queues themselves, for the admin UI. */
  all(): Queue[] {
    return GENERATION_KINDS.map((kind) => this.queues[kind] as unknown as Queue);
  }

  async close(): Promise<void> {
    await Promise.allSettled(Object.values(this.queues).map((queue) => queue.close()));
  }
}
