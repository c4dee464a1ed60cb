import { isFinalStatus, type Generation, type GenerationKind } from '@mediagen/shared';
import type { GenerationEventSource, QueueEventName } from '../queue/generation-queues';

const MAX_TRACKED_JOBS = 10_000;

export interface RelayLogger {
  warn(details: object, message: string): void;
}

interface Options {
  source: GenerationEventSource;
  /** Reads the current state of a generation and its owner; null when the job no longer exists. */
  load(kind: GenerationKind, id: string): Promise<{ uid: string; generation: Generation } | null>;
  emit(uid: string, generation: Generation): void;
  log: RelayLogger;
}

/**
 * Turns queue events into `generation:update` events for the owner. Each event re-reads the whole job,
 * so a late or repeated event still carries the current state. Per job, events are handled in order and
 * progress never goes backwards (state is kept only until the job ends).
 */
export class GenerationRelay {
  private readonly lastProgress = new Map<string, number>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly detach: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly options: Options) {}

  start(): void {
    this.detach.push(
      this.options.source.onQueueEvent((kind, event, jobId) =>
        this.enqueue(jobId, () => this.relay(kind, event, jobId)),
      ),
      this.options.source.onCanceled((_kind, event) =>
        this.enqueue(event.jobId, async () => {
          this.lastProgress.delete(event.jobId);
          this.options.emit(event.uid, JSON.parse(event.generation) as Generation);
        }),
      ),
    );
  }

  /** Stops listening and waits for the updates already being handled. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.detach.splice(0).forEach((off) => off());
    await Promise.allSettled([...this.pending.values()]);
  }

  private enqueue(jobId: string, task: () => Promise<void>): void {
    if (this.stopped) return;
    const previous = this.pending.get(jobId) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((error: unknown) =>
        this.options.log.warn({ err: error, generationId: jobId }, 'could not relay a generation update'),
      )
      .finally(() => {
        if (this.pending.get(jobId) === next) this.pending.delete(jobId);
      });
    this.pending.set(jobId, next);
  }

  private async relay(kind: GenerationKind, event: QueueEventName, jobId: string): Promise<void> {
    if (event === 'removed') {
      // A canceled job's update comes with the cancel event; a removed job has nothing left to show.
      this.lastProgress.delete(jobId);
      return;
    }
    const loaded = await this.options.load(kind, jobId);
    if (loaded === null) return;
    const { uid, generation } = loaded;
    if (isFinalStatus(generation.status)) {
      this.lastProgress.delete(jobId);
      this.options.emit(uid, generation);
      return;
    }
    // A worker often takes a job before its 'waiting' event is read back; the owner still hears that it
    // was queued first, and the 'active' event that follows brings the current state.
    if (event === 'waiting' && generation.status === 'active' && !this.lastProgress.has(jobId)) {
      generation.status = 'queued';
    }
    const last = this.lastProgress.get(jobId);
    if (last !== undefined && generation.progress < last) {
      if (event === 'progress') return;
      generation.progress = last;
    }
    this.lastProgress.delete(jobId);
    this.lastProgress.set(jobId, generation.progress);
    // Jobs that end without this server hearing it (removed by retention) must not pile up.
    if (this.lastProgress.size > MAX_TRACKED_JOBS) this.lastProgress.delete(this.lastProgress.keys().next().value!);
    this.options.emit(uid, generation);
  }
}
