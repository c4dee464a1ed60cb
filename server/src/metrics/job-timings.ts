import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import type { GenerationEventSource, GenerationJob } from '../queue/generation-queues';
import type { RunOutcome, ServerMetrics } from './server-metrics';

/** Run times kept per kind for the queue ETA. */
const RUN_TIME_WINDOW = 20;
/** First starts remembered for jobs that are running (video jobs re-delay themselves between polls). */
const MAX_TRACKED_STARTS = 10_000;

export interface TimingsLogger {
  warn(details: object, message: string): void;
}

interface Options {
  source: GenerationEventSource;
  getJob(kind: GenerationKind, id: string): Promise<GenerationJob | undefined>;
  metrics: ServerMetrics;
  log: TimingsLogger;
}

/**
 * Observes wait and run times from queue events ('active', 'completed', 'failed') and keeps a rolling
 * window of recent run times per kind for the queue ETA.
 *
 * BullMQ overwrites `processedOn` at every start, and a video job starts again after each poll, so run
 * time counts from the first start: the worker's `startedAt` in the job data when it is there, else the
 * first start this instance saw (`attemptsStarted === 1`), else the latest `processedOn`.
 */
export class JobTimings {
  private readonly firstStarts = new Map<string, number>();
  private readonly recentRuns = new Map<GenerationKind, number[]>(GENERATION_KINDS.map((kind) => [kind, []]));
  private readonly pending = new Map<string, Promise<void>>();
  private detach: (() => void) | undefined;

  constructor(private readonly options: Options) {}

  start(): void {
    this.detach = this.options.source.onQueueEvent((kind, event, jobId) => {
      if (event !== 'active' && event !== 'completed' && event !== 'failed') return;
      // In order per job, so a quick job's 'completed' never overtakes its 'active'.
      const next = (this.pending.get(jobId) ?? Promise.resolve())
        .then(() => this.observe(kind, event, jobId))
        .catch((error: unknown) =>
          this.options.log.warn({ err: error, generationId: jobId }, 'could not read job timings'),
        )
        .finally(() => {
          if (this.pending.get(jobId) === next) this.pending.delete(jobId);
        });
      this.pending.set(jobId, next);
    });
  }

  async stop(): Promise<void> {
    this.detach?.();
    await Promise.allSettled([...this.pending.values()]);
  }

  /** Mean run time (ms) of the last runs of a kind; null before any was seen. */
  meanRunMs(kind: GenerationKind): number | null {
    const runs = this.recentRuns.get(kind) ?? [];
    if (runs.length === 0) return null;
    return runs.reduce((sum, value) => sum + value, 0) / runs.length;
  }

  /** Records a run time directly (the ETA's window; tests and warm starts). */
  recordRun(kind: GenerationKind, outcome: RunOutcome, runMs: number): void {
    this.options.metrics.runSeconds.observe({ kind, outcome }, runMs / 1000);
    if (outcome !== 'completed') return;
    const runs = this.recentRuns.get(kind)!;
    runs.push(runMs);
    if (runs.length > RUN_TIME_WINDOW) runs.shift();
  }

  private async observe(kind: GenerationKind, event: 'active' | 'completed' | 'failed', jobId: string): Promise<void> {
    const job = await this.options.getJob(kind, jobId);
    if (job === undefined) return;
    if (event === 'active') {
      if (job.attemptsStarted !== 1 || job.processedOn === undefined) return;
      if (this.firstStarts.has(jobId)) return;
      this.firstStarts.set(jobId, job.processedOn);
      if (this.firstStarts.size > MAX_TRACKED_STARTS) this.firstStarts.delete(this.firstStarts.keys().next().value!);
      this.options.metrics.waitSeconds.observe({ kind }, Math.max(0, job.processedOn - job.timestamp) / 1000);
      return;
    }
    // The worker records its first start in the job (`startedAt`); older jobs fall back to what was seen.
    const started = job.data.startedAt ?? this.firstStarts.get(jobId) ?? job.processedOn;
    this.firstStarts.delete(jobId);
    if (started === undefined || job.finishedOn === undefined) return;
    this.recordRun(kind, event, Math.max(0, job.finishedOn - started));
  }
}
