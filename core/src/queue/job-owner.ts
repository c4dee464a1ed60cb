import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { signalCancel } from '../cancel-signals';
import { naturalBatches } from '../natural-batches';
import { keysOfOutputs } from '../lifecycle/generation-record';
import { forgetProgress } from '../progress/progress-channel';
import { jobTraceMetadata, queueTelemetry } from '../tracing/queue-telemetry';
import { SPAN_ATTRIBUTES, SpanKind, inSpan } from '../tracing/spans';
import {
  generationJobOptions,
  queueName,
  type GenerationJobData,
  type JobRetention,
  type RetryPolicy,
} from './generation-jobs';

/** A job that waits (not yet taken by a worker) can be moved or taken out; a running one cannot. */
const WAITING_JOB_STATES: ReadonlySet<string> = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/** A job to add: `traceMetadata` is the context of the work that decided it (queue-telemetry.ts). */
interface JobToAdd {
  id: string;
  priority: number;
  traceMetadata?: string;
}

/** Each step of an effect is tried this many times, these delays apart, before it counts as failed. */
const STEP_RETRY_DELAYS_MS = [50, 250];

export interface JobRef {
  id: string;
  kind: GenerationKind;
  /** Its submission's traceparent, when traced: a job put back in line continues that trace. */
  traceParent?: string | null;
}

/** A generation whose record is gone (deleted, or its account closed): what of it is left to clear. */
export interface GoneGeneration extends JobRef {
  artifactKeys: readonly string[];
  /** It was queued or running when it went: a worker holding it stops its provider call. */
  wasRunning: boolean;
}

export interface JobOwnerOptions {
  connection: Redis;
  prefix: string;
  retry: RetryPolicy;
  retention: JobRetention;
  artifacts: Pick<ArtifactStore, 'remove'>;
  log: { warn(details: object, message: string): void };
}

/**
 * The only code that adds, moves, withdraws or forgets a generation's job, and deletes its files. The
 * record decides (core/src/lifecycle); each method here is named after what the record decided and applies
 * what must follow it, in order. Every step is idempotent (the job id is the generation id; removing what
 * is gone is no error) and tried again on a passing failure, so a caller may call the same method twice.
 *
 * Place in line: the record's (queue_priority, queue_order) is the truth, written only by the lifecycle
 * (submit, retry, plan change, `moveInLine`) and read only from the record; a job's BullMQ priority
 * follows it, so workers take jobs in the record's order.
 */
export class GenerationJobOwner {
  private readonly queues: Record<GenerationKind, Queue<GenerationJobData>>;
  /** Adds that arrive together go to Redis in one round trip (`addBulk`), per queue. */
  private readonly adders: Record<GenerationKind, (job: JobToAdd) => Promise<void>>;

  constructor(private readonly options: JobOwnerOptions) {
    const { connection, prefix, log } = options;
    this.queues = Object.fromEntries(
      GENERATION_KINDS.map((kind) => {
        const queue = new Queue<GenerationJobData>(queueName(kind), {
          connection,
          prefix,
          telemetry: queueTelemetry(),
        });
        queue.on('error', (err) => log.warn({ err, kind }, 'queue error'));
        return [kind, queue];
      }),
    ) as Record<GenerationKind, Queue<GenerationJobData>>;
    this.adders = Object.fromEntries(
      GENERATION_KINDS.map((kind) => [kind, naturalBatches((jobs: readonly JobToAdd[]) => this.addAll(kind, jobs))]),
    ) as GenerationJobOwner['adders'];
  }

  /**
   * A submission was charged: its job joins the queue at `priority`. Throws when Redis refuses it, so the
   * caller can fail the generation and give its token back (a job that reached Redis after all finds its
   * generation failed and is let go).
   */
  submitted(generation: JobRef, priority: number): Promise<void> {
    return this.traced('queue add', generation, priority, () =>
      this.adders[generation.kind]({ id: generation.id, priority, traceMetadata: jobTraceMetadata() }),
    );
  }

  /**
   * A generation goes back in line (an operator's retry, or the reconciler after Redis lost its job): what
   * is left of its old job goes, and a fresh one joins at `priority`, last of that level.
   */
  async requeued(generation: JobRef, priority: number): Promise<void> {
    await this.traced('queue requeue', generation, priority, async () => {
      await step(() => this.queues[generation.kind].remove(generation.id));
      const traceMetadata = jobTraceMetadata(generation.traceParent);
      await step(() => this.addAll(generation.kind, [{ id: generation.id, priority, traceMetadata }]));
    });
  }

  /**
   * The record already says `priority` (a plan change, or the priority aging, moved it in line): the job
   * follows if it still waits; one a worker took meanwhile runs as it is. True when the job moved.
   */
  async reprioritized(generation: JobRef, priority: number): Promise<boolean> {
    const job = await step(() => this.queues[generation.kind].getJob(generation.id));
    if (job === undefined || job.priority === priority) return false;
    if (!WAITING_JOB_STATES.has(await step(() => job.getState()))) return false;
    // Taken by a worker between the two reads: BullMQ refuses, and it runs at the priority it had.
    return job.changePriority({ priority }).then(
      () => true,
      () => false,
    );
  }

  /**
   * A generation was canceled: its job leaves the queue if no worker holds it yet, and a worker running it
   * is told to stop its provider call now. Neither changes the outcome, which the record decided.
   */
  async canceled(generation: JobRef): Promise<{ jobRemoved: boolean }> {
    const queue = this.queues[generation.kind];
    // Images of a set an earlier run stored are nobody's once the job waiting to finish the set goes.
    let imagesMade: string[] = [];
    const jobRemoved = await step(async () => {
      const job = await queue.getJob(generation.id);
      if (job === undefined || !WAITING_JOB_STATES.has(await job.getState())) return false;
      imagesMade = filesOfImagesMade(job.data);
      return (await queue.remove(generation.id)) === 1;
    }).catch((error: unknown) => {
      this.options.log.warn({ err: error, generationId: generation.id }, 'could not withdraw a canceled job');
      return false;
    });
    if (jobRemoved) {
      await this.discarded(imagesMade).catch((error: unknown) => {
        this.options.log.warn({ err: error, generationId: generation.id }, "could not delete a canceled set's images");
      });
    }
    await this.tell(generation.id);
    return { jobRemoved };
  }

  /**
   * Generations whose records are gone (deleted, or their account closed): their files, jobs (in any
   * state: a worker holding one lets go by itself) and kept progress go, and workers running them stop.
   * Nothing of them is left for a failure to matter to anyone but storage: failures are logged.
   */
  async gone(generations: readonly GoneGeneration[]): Promise<void> {
    const results = await Promise.allSettled([
      ...generations.map(async (generation) => {
        const job = await step(() => this.queues[generation.kind].getJob(generation.id));
        await this.discarded([...new Set([...generation.artifactKeys, ...filesOfImagesMade(job?.data)])]);
        await step(() => this.queues[generation.kind].remove(generation.id));
      }),
      ...generations.filter((generation) => generation.wasRunning).map((generation) => this.tell(generation.id)),
      step(() =>
        forgetProgress(
          this.options.connection,
          this.options.prefix,
          generations.map((generation) => generation.id),
        ),
      ),
    ]);
    for (const result of results) {
      if (result.status === 'rejected')
        this.options.log.warn({ err: result.reason }, 'could not clear a gone generation');
    }
  }

  /**
   * Files no record offers (a result its generation's cancel beat, a result past its plan's retention):
   * deleted. Throws the first failure once every file was tried; one already gone is no failure.
   */
  async discarded(artifactKeys: readonly string[]): Promise<void> {
    const results = await Promise.allSettled(artifactKeys.map((key) => step(() => this.options.artifacts.remove(key))));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  /** The BullMQ queues, to read: counts, states, the admin UI. Changing a job is this module's business. */
  queue(kind: GenerationKind): Queue<GenerationJobData> {
    return this.queues[kind];
  }

  async close(): Promise<void> {
    await Promise.allSettled(Object.values(this.queues).map((queue) => queue.close()));
  }

  /**
   * The span of a job joining its queue, the parent of every run of the job (queue-telemetry.ts): in the
   * generation's own trace when it has one (a requeue by the reconciler or an operator's retry continues it).
   */
  private traced(name: string, generation: JobRef, priority: number, add: () => Promise<void>): Promise<void> {
    const attributes = {
      [SPAN_ATTRIBUTES.generationId]: generation.id,
      [SPAN_ATTRIBUTES.kind]: generation.kind,
      'messaging.destination.name': queueName(generation.kind),
      'mediagen.job.priority': priority,
    };
    const options = { kind: SpanKind.PRODUCER, attributes, parent: generation.traceParent };
    return inSpan(`${name} ${queueName(generation.kind)}`, options, add);
  }

  /** Tells the worker holding a generation to stop its provider call now; a lost message costs only time. */
  private async tell(id: string): Promise<void> {
    await step(() => signalCancel(this.options.connection, this.options.prefix, id)).catch(() => undefined);
  }

  /**
   * One pipeline for the lot (a lone job goes on its own: setting up a pipeline costs more than it saves
   * for one). Should the pipeline fail, every job in it counts as not added; some may have been, and the
   * worker finds their generations failed and lets them go, as after any add whose answer was lost.
   */
  private async addAll(kind: GenerationKind, jobs: readonly JobToAdd[]): Promise<void[]> {
    const queue = this.queues[kind];
    const { retry, retention } = this.options;
    const options = ({ id, priority, traceMetadata }: JobToAdd) => ({
      ...generationJobOptions(id, retry, retention, priority),
      ...(traceMetadata === undefined ? {} : { telemetry: { metadata: traceMetadata } }),
    });
    if (jobs.length === 1) await queue.add(kind, { kind }, options(jobs[0]!));
    else await queue.addBulk(jobs.map((job) => ({ name: kind, data: { kind }, opts: options(job) })));
    return jobs.map(() => undefined);
  }
}

/** Runs `work`, trying again after a passing failure; the last failure is thrown. */
async function step<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const delay = STEP_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** The files of an image set's images a job's earlier runs stored (GenerationJobData.imagesMade). */
export function filesOfImagesMade(data: GenerationJobData | undefined): string[] {
  return keysOfOutputs(data?.imagesMade?.map((made) => made.output));
}
