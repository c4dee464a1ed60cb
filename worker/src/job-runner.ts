import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import {
  SPAN_ATTRIBUTES,
  annotateActiveSpan,
  filesOfImagesMade,
  inSpan,
  keysOfOutputs,
  outputKeys,
  tagGeneration,
  type GenerationJobOwner,
  type GenerationJobData,
  type GenerationLifecycle,
  type GenerationRecord,
  type ProgressEvent,
  type RecentRunTimes,
  type StoredArtifact,
} from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import { failureReport } from './failure-report';
import type { JobDeadline } from './config';
import { GenerationError, deadlineError } from './generation-error';
import type { WorkerMetrics } from './observability/worker-metrics';
import { ProgressReporter } from './processors/job-progress';
import type { GenerationProcessor, JobAttempt } from './processors/processor-context';
import { maskSecrets } from './providers/mask-secrets';
import { RunPaidCalls, giveBackPendingCalls, type JobSpend } from './paid-calls';
import { ProviderBusyError, type CallOutcome } from './providers/provider-calls';
import type { ProviderGateway } from './providers/provider-gateway';
import { QueueStepError, queueStep } from './queue-step-error';
import { recordStep } from './record-step';

export type GenerationJob = Job<GenerationJobData>;

const FALLBACK_ERROR = {
  image: 'IMAGE_FAILED',
  video: 'VIDEO_GENERATION_FAILED',
  speech: 'SPEECH_FAILED',
} as const satisfies Record<GenerationKind, string>;

/** The abort reason of a job released at shutdown: it goes back to its queue, unharmed. */
export class HandBack extends Error {
  constructor() {
    super('worker shutting down: job handed back to its queue');
  }
}

export interface JobRunnerDeps {
  lifecycle: GenerationLifecycle;
  processors: { [K in GenerationKind]: GenerationProcessor<K> };
  gateway: ProviderGateway;
  /** Deletes the files of a result nobody may have (its generation was canceled first). */
  jobs: Pick<GenerationJobOwner, 'discarded'>;
  metrics: WorkerMetrics;
  recentRuns: RecentRunTimes;
  publishProgress(event: ProgressEvent): Promise<void>;
  /** Pauses a kind's queue for every worker (a provider's rate limit or an open breaker). */
  pauseQueue(kind: GenerationKind, ms: number): Promise<void>;
  /** Abort controllers of the jobs running here, by generation id: cancels and shutdown reach them. */
  active: Map<string, AbortController>;
  /** Per generation (config.ts, jobDeadlineOf): a video model with a longer poll window gets a longer one. */
  jobDeadlineMs: JobDeadline;
  defaultRetryAfterMs: number;
  /** The spend controls as a run sees them (paid-calls.ts). */
  spend: JobSpend;
  log(message: string): void;
}

function asGenerationError(error: unknown, kind: GenerationKind): GenerationError {
  if (error instanceof GenerationError) return error;
  return GenerationError.of(FALLBACK_ERROR[kind], { retryable: true });
}

function isFinalAttempt(job: GenerationJob, error: GenerationError): boolean {
  return !error.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** What the run's catch does with `error`: true when it ends the job as failed (JobAttempt.endsTheJob). */
function failsTheJob(job: GenerationJob, error: unknown): boolean {
  if (
    error instanceof DelayedError ||
    error instanceof QueueStepError ||
    error instanceof HandBack ||
    error instanceof ProviderBusyError
  ) {
    return false;
  }
  const failure = asGenerationError(error, job.data.kind);
  return failure.code !== 'CANCELED' && isFinalAttempt(job, failure);
}

/** The delay BullMQ will apply before the next attempt (builtin strategies, no jitter). */
function nextRetryDelayMs(job: GenerationJob): number {
  const backoff = job.opts.backoff;
  if (backoff === undefined) return 0;
  if (typeof backoff === 'number') return backoff;
  const delay = backoff.delay ?? 0;
  return backoff.type === 'exponential' ? Math.round(2 ** job.attemptsMade * delay) : delay;
}

/**
 * Runs one job of the queue against its record. Every change of the generation goes through the
 * lifecycle: `start` (a generation no longer queued or active is let go), `provider-started` before each
 * call that may cost money (the run's paid calls: paid-calls.ts), `complete` (a cancel that committed first
 * wins, and the artifact is deleted) or `fail` (the lifecycle decides refund or spend). A transition the
 * database could not take is kept in the job's data and told by the next attempt, never paid for again. A step only the queue's Redis can
 * take that fails (queue-step-error.ts) changes nothing in the record: the queue brings the job back.
 */
export function createJobRunner(deps: JobRunnerDeps) {
  const { lifecycle, metrics } = deps;
  /** A transition that must happen: retried while the database is briefly away. */
  const record = recordStep(deps.log);

  /** Tells the record how a run ended; false when it had already ended otherwise (a cancel came first). */
  async function conclude(
    job: GenerationJob,
    outcome: NonNullable<GenerationJobData['outcome']>,
  ): Promise<GenerationRecord | null> {
    const id = job.id!;
    try {
      // Calls that cost the owner nothing go back first: told the ending first, the record would settle the
      // token as spent for them.
      await giveBackPendingCalls(job, lifecycle, record);
      const told =
        'completed' in outcome
          ? await inSpan('generation complete', {}, () =>
              record('record the completion', () => lifecycle.complete(id, outcome.completed)),
            )
          : await inSpan('generation fail', { attributes: { 'mediagen.error.code': outcome.failed.code } }, () =>
              record('record the failure', () => lifecycle.fail(id, outcome.failed)),
            );
      if (told.ok) return told.generation;
      if ('completed' in outcome) {
        // Canceled before the result was recorded: the result is nobody's, so it goes. A run that lost
        // to another run of the same job (a failover brought the job back) wrote under the same keys as
        // the result the record holds: those files stay.
        const { key, markedKey, outputs } = outcome.completed;
        const recorded = told.current === null ? [] : outputKeys(told.current);
        const written = new Set([...(markedKey ? [key, markedKey] : [key]), ...keysOfOutputs(outputs)]);
        const orphans = [...written].filter((file) => !recorded.includes(file));
        await deps.jobs.discarded(orphans).catch(() => undefined);
        await job
          .log(
            `not completed: the generation was ${told.current?.status ?? 'removed'} first` +
              (orphans.length > 0 ? '; artifact deleted' : '; its recorded artifact kept'),
          )
          .catch(() => undefined);
      }
      return null;
    } catch (error) {
      // The database is away: keep the outcome with the job, so nothing is lost and nothing is paid twice.
      await job.updateData({ ...job.data, outcome });
      throw error;
    }
  }

  /**
   * The run ends without the set it was making (canceled, let go, failed): the images earlier runs stored
   * for it go, but for files the record holds (a run of the same job that completed it).
   */
  async function discardImagesMade(job: GenerationJob, recorded: GenerationRecord | null): Promise<void> {
    const held = recorded === null ? [] : outputKeys(recorded);
    const orphans = filesOfImagesMade(job.data).filter((file) => !held.includes(file));
    if (orphans.length === 0) return;
    await deps.jobs.discarded(orphans).then(
      () => job.log(`the set was not completed: ${orphans.length} file(s) of its images made deleted`),
      () => undefined,
    );
  }

  /** The provider cannot take the call now: the queue waits, and the job goes back without using an attempt. */
  async function holdQueue(job: GenerationJob, busy: ProviderBusyError): Promise<never> {
    const kind = job.data.kind;
    const waitMs = busy.retryAfterMs ?? deps.defaultRetryAfterMs;
    await deps.pauseQueue(kind, waitMs);
    metrics.queueRateLimited(kind, busy.reason);
    const why = busy.reason === 'rate_limited' ? `${busy.provider} rate limit (${busy.message})` : busy.message;
    await job.log(`${why}: ${kind} queue paused for ${waitMs} ms; job back to waiting, attempt not used`);
    throw Worker.RateLimitError();
  }

  function runMs(generation: GenerationRecord): number {
    return Date.now() - (generation.startedAt?.getTime() ?? Date.now());
  }

  /** `outcome`: how the provider call behind a failure ended, when one was. */
  async function ended(
    job: GenerationJob,
    generation: GenerationRecord | null,
    outcome: CallOutcome | undefined = undefined,
  ): Promise<void> {
    if (generation === null) return;
    const kind = generation.kind;
    if (generation.status === 'completed') {
      const ranMs = runMs(generation);
      metrics.completed(kind, ranMs);
      // Only the queue ETA reads it: a run time lost to a Redis hiccup is not worth failing the job for.
      void deps.recentRuns.record(kind, ranMs).catch(() => undefined);
    } else if (generation.status === 'failed') {
      metrics.failed(kind, generation.error?.code ?? 'INTERNAL', outcome ?? 'none', runMs(generation));
      if (generation.token === 'refunded') metrics.refunded(kind);
    }
  }

  return async function run(job: GenerationJob, token: string | undefined): Promise<void> {
    // Inside BullMQ's span of this run, a child of the job's add (or of the retry that brought it back).
    tagGeneration(job.id!);
    annotateActiveSpan({
      [SPAN_ATTRIBUTES.kind]: job.data.kind,
      [SPAN_ATTRIBUTES.attempt]: job.attemptsMade + 1,
      ...(job.data.polls === undefined ? {} : { 'mediagen.video.polls': job.data.polls }),
    });
    const kind = job.data.kind;
    const id = job.id!;
    if (job.data.outcome !== undefined) {
      // An earlier attempt finished the work but could not tell the record: tell it now.
      await ended(job, await conclude(job, job.data.outcome));
      return;
    }
    const paidCalls = new RunPaidCalls(
      { lifecycle, gateway: deps.gateway, spend: deps.spend, record, log: deps.log },
      job,
    );
    const started = await paidCalls.start().catch(async (error: unknown) => {
      if (error instanceof ProviderBusyError) await holdQueue(job, error);
      throw error;
    });
    if (!started.ok) {
      await job.log(`not run: the generation is ${started.current?.status ?? 'gone'}`).catch(() => undefined);
      await discardImagesMade(job, started.current);
      return;
    }
    const generation = started.generation;
    if (started.changed) metrics.firstStarted(kind, Date.now() - generation.createdAt.getTime());

    const controller = new AbortController();
    const deadline = deadlineError(kind);
    const remainingMs = (generation.startedAt?.getTime() ?? Date.now()) + deps.jobDeadlineMs(generation) - Date.now();
    const deadlineTimer = setTimeout(() => controller.abort(deadline), Math.max(0, remainingMs));
    deps.active.set(id, controller);
    metrics.jobStarted(kind);

    // Progress belongs to the version the run's last transition made (a paid call's record may raise it).
    const progress = new ProgressReporter((value) =>
      deps.publishProgress({
        id,
        uid: generation.uid,
        version: paidCalls.generation.version,
        progress: value,
        at: Date.now(),
      }),
    );
    const attempt: JobAttempt = {
      generation: generation as JobAttempt['generation'],
      token,
      signal: controller.signal,
      progress,
      call: (provider, call, action, options) => paidCalls.call(controller.signal, provider, call, action, options),
      async recordProviderTask(taskId) {
        await record('record the provider task', () => lifecycle.recordProviderTask(id, taskId));
      },
      log: (line) =>
        job.log(line).then(
          () => undefined,
          () => undefined,
        ),
      async saveStep(step) {
        await queueStep("save the job's step", () => job.updateData({ ...job.data, ...step }));
      },
      endsTheJob: (error) => failsTheJob(job, error),
      async pollAgainIn(ms) {
        await queueStep('delay the job', () => job.moveToDelayed(Date.now() + ms, token));
        throw new DelayedError();
      },
    };

    try {
      if (remainingMs <= 0) throw deadline;
      const artifact: StoredArtifact = await (deps.processors[kind] as GenerationProcessor<GenerationKind>)(
        job,
        attempt as never,
      );
      await paidCalls.giveBackUnsent();
      await ended(job, await conclude(job, { completed: artifact }));
    } catch (error) {
      await paidCalls.giveBackUnsent();
      if (error instanceof DelayedError) throw error;
      if (error instanceof QueueStepError) {
        metrics.runLeftToQueue(kind);
        deps.log(`${id}: ${error.message}; the job is left to the queue's recovery, the record unchanged`);
        throw error;
      }
      if (error instanceof HandBack) {
        await job.moveToWait(token);
        metrics.handedBackJob(kind);
        deps.log(`${id}: shutting down, handed back to the queue (attempt not used)`);
        await job.log('worker shutting down: handed back to the queue (attempt not used)').catch(() => undefined);
        throw new WaitingError();
      }
      if (error instanceof ProviderBusyError) await holdQueue(job, error);
      // The kind's plain failure stands for it below: the operators' log keeps what was thrown.
      if (!(error instanceof GenerationError)) deps.log(`${id}: unexpected error: ${maskSecrets(String(error))}`);
      const failure = asGenerationError(error, kind);
      if (failure.code === 'CANCELED') {
        // The cancel is in the record already (that is how it reached us); the job just stops.
        await job.log('canceled: stopped').catch(() => undefined);
        await discardImagesMade(job, null);
        return;
      }
      if (failure === deadline) metrics.deadlineExceeded(kind);
      const attemptNumber = job.attemptsMade + 1;
      if (!isFinalAttempt(job, failure)) {
        metrics.retry(kind);
        deps.log(`${id}: attempt ${attemptNumber} failed: ${failure.code}; next try in ${nextRetryDelayMs(job)} ms`);
        await job.log(
          `attempt ${attemptNumber} failed: ${failure.code} ${failure.message}; next try in ${nextRetryDelayMs(job)} ms`,
        );
        throw new Error(failure.message);
      }
      // The job, its logs and the worker's log are the operators': they keep the provider's answer.
      const report = failureReport(failure, kind);
      const operatorMessage = maskSecrets(failure.message);
      deps.log(`${id}: failed for good: ${failure.code} ${report.providerError ?? operatorMessage}`);
      await job
        .log(`attempt ${attemptNumber} failed: ${failure.code} ${operatorMessage}; no retry`)
        .catch(() => undefined);
      const failed = await conclude(job, { failed: report });
      await discardImagesMade(job, failed === null ? await lifecycle.find(id).catch(() => null) : failed);
      await ended(job, failed, failure.outcome);
      throw new UnrecoverableError(operatorMessage);
    } finally {
      clearTimeout(deadlineTimer);
      deps.active.delete(id);
      metrics.jobEnded(kind);
      await paidCalls.spendRecorded();
    }
  };
}
