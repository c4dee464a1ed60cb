import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import {
  artifactKeys,
  type PauseReason,
  type GenerationJobOwner,
  type GenerationJobData,
  type GenerationLifecycle,
  type GenerationRecord,
  type ProgressEvent,
  type RecentRunTimes,
  type StoredArtifact,
} from '@mediagen/core';
import { PROVIDER_OF_KIND, type GenerationKind, type ProviderName } from '@mediagen/shared';
import { failureReport } from './failure-report';
import { GenerationError, callLimitError, canceledError, deadlineError } from './generation-error';
import type { WorkerMetrics } from './observability/worker-metrics';
import { ProgressReporter } from './processors/job-progress';
import type { GenerationProcessor, JobAttempt } from './processors/processor-context';
import { maskSecrets } from './providers/mask-secrets';
import { ProviderOutOfCreditError } from './providers/out-of-credit-error';
import {
  ProviderBusyError,
  mayHaveDonePaidWork,
  ownerPaysFor,
  type CallOutcome,
  type ProviderCall,
} from './providers/provider-calls';
import { outcomeOf, type ProviderGateway } from './providers/provider-gateway';
import { QueueStepError, queueStep } from './queue-step-error';

export type GenerationJob = Job<GenerationJobData>;

const FALLBACK_ERROR = {
  image: 'IMAGE_FAILED',
  video: 'VIDEO_GENERATION_FAILED',
  speech: 'SPEECH_FAILED',
} as const satisfies Record<GenerationKind, string>;

/**
 * The paid provider call each kind's every run opens with, nothing awaited before it: the start records
 * that call in the same commit. A video's later runs resume a task the record knows, so a video records
 * its call as it makes it.
 */
const OPENING_PAID_CALL: Record<GenerationKind, ProviderCall | null> = {
  image: 'text_to_image',
  speech: 'speech',
  video: null,
};

/** A transition the record could not take right now is tried again this often before the job gives up. */
const RECORD_RETRY_DELAYS_MS = [100, 500, 2000];

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
  /** Per kind (config.ts, jobDeadlinesMs): a video model with a longer poll window gets a longer one. */
  jobDeadlineMs: Record<GenerationKind, number>;
  defaultRetryAfterMs: number;
  spend: JobSpend;
  log(message: string): void;
}

/** The spend controls as a run sees them (worker/src/job-spend.ts). */
export interface JobSpend {
  /** Why a paid call to the provider must wait now; null when it may go. */
  holdBack(provider: ProviderName): Promise<PauseReason | null>;
  /** A paid call was accepted: its estimated cost is recorded. Never rejects: a lost estimate fails no job. */
  accepted(job: Job, generation: GenerationRecord, provider: ProviderName): Promise<void>;
  /** The provider's account refused for want of credit: its paid calls may be held back on every worker. */
  outOfCredit(provider: ProviderName, message: string): Promise<void>;
  /** How long a held-back queue waits before its jobs try again (a raised budget or a new day frees it). */
  retryAfterMs: number;
}

const HELD_BACK_BECAUSE: Record<PauseReason, (provider: ProviderName) => string> = {
  kill_switch: () => 'paid provider calls are switched off by an operator',
  budget: (provider) => `the daily spend budget for ${provider} is reached`,
  out_of_credit: (provider) =>
    `the ${provider} account is out of credit, until an operator clears it or a balance check finds credit`,
};

function spendHeldBack(provider: ProviderName, reason: PauseReason, retryAfterMs: number): ProviderBusyError {
  return new ProviderBusyError(provider, reason, retryAfterMs, HELD_BACK_BECAUSE[reason](provider));
}

function asGenerationError(error: unknown, kind: GenerationKind): GenerationError {
  if (error instanceof GenerationError) return error;
  return GenerationError.of(FALLBACK_ERROR[kind], { retryable: true });
}

function isFinalAttempt(job: GenerationJob, error: GenerationError): boolean {
  return !error.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
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
 * call that may cost money, `complete` (a cancel that committed first wins, and the artifact is deleted)
 * or `fail` (the lifecycle decides refund or spend). A transition the database could not take is kept in
 * the job's data and told by the next attempt, never paid for again. A step only the queue's Redis can
 * take that fails (queue-step-error.ts) changes nothing in the record: the queue brings the job back.
 */
export function createJobRunner(deps: JobRunnerDeps) {
  const { lifecycle, metrics } = deps;

  /** A transition that must happen: retried while the database is briefly away. */
  async function record<T>(what: string, transition: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await transition();
      } catch (error) {
        const delay = RECORD_RETRY_DELAYS_MS[attempt];
        if (delay === undefined) throw error;
        deps.log(`could not ${what} (${error instanceof Error ? error.message : String(error)}); trying again`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /** Tells the record how a run ended; false when it had already ended otherwise (a cancel came first). */
  async function conclude(
    job: GenerationJob,
    outcome: NonNullable<GenerationJobData['outcome']>,
  ): Promise<GenerationRecord | null> {
    const id = job.id!;
    try {
      const told =
        'completed' in outcome
          ? await record('record the completion', () => lifecycle.complete(id, outcome.completed))
          : await record('record the failure', () => lifecycle.fail(id, outcome.failed));
      if (told.ok) return told.generation;
      if ('completed' in outcome) {
        // Canceled before the result was recorded: the result is nobody's, so it goes. A run that lost
        // to another run of the same job (a failover brought the job back) wrote under the same keys as
        // the result the record holds: those files stay.
        const { key, markedKey } = outcome.completed;
        const recorded = artifactKeys(told.current?.artifact ?? null);
        const orphans = (markedKey ? [key, markedKey] : [key]).filter((file) => !recorded.includes(file));
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
    const kind = job.data.kind;
    const id = job.id!;
    if (job.data.outcome !== undefined) {
      // An earlier attempt finished the work but could not tell the record: tell it now.
      await ended(job, await conclude(job, job.data.outcome));
      return;
    }
    // A job whose first step is a paid call waits in its queue, still `queued` for its owner, while the
    // provider is held back (a budget, the kill switch); a video already polling its paid task goes on.
    let spendChecked = false;
    if (job.data.taskId === undefined) {
      const provider = PROVIDER_OF_KIND[kind];
      const held = await deps.spend.holdBack(provider);
      if (held !== null) await holdQueue(job, spendHeldBack(provider, held, deps.spend.retryAfterMs));
      spendChecked = true;
    }
    const openingCall = OPENING_PAID_CALL[kind];
    const startWithPaidCall = openingCall !== null;
    if (openingCall !== null) {
      // The provider's rate-limit turn comes before the call is recorded: an owner who cancels while the
      // run waits for it still has a queued generation, and gets the token back.
      await deps.gateway.takeTurn(job, PROVIDER_OF_KIND[kind], openingCall).catch(async (error: unknown) => {
        if (error instanceof ProviderBusyError) await holdQueue(job, error);
        throw error;
      });
    }
    let started = await record('start the generation', () =>
      startWithPaidCall ? lifecycle.startWithPaidCall(id) : lifecycle.start(id),
    );
    // Counted by the start and not sent yet: given back if the run ends before sending it.
    let unsentPaidCall = startWithPaidCall && started.ok;
    // At its limit of paid calls: started without one, the call is refused when it comes.
    if (!started.ok && started.reason === 'call-limit') {
      started = await record('start the generation', () => lifecycle.start(id));
    }
    if (!started.ok) {
      await job.log(`not run: the generation is ${started.current?.status ?? 'gone'}`).catch(() => undefined);
      return;
    }
    let generation = started.generation;
    if (started.changed) metrics.firstStarted(kind, Date.now() - generation.createdAt.getTime());

    const controller = new AbortController();
    const deadline = deadlineError(kind);
    const remainingMs = (generation.startedAt?.getTime() ?? Date.now()) + deps.jobDeadlineMs[kind] - Date.now();
    const deadlineTimer = setTimeout(() => controller.abort(deadline), Math.max(0, remainingMs));
    deps.active.set(id, controller);
    metrics.jobStarted(kind);

    // Recorded while the run goes on (the estimate moves no token); the run waits for them before it ends.
    const spendRecords: Promise<void>[] = [];
    const progress = new ProgressReporter((value) =>
      deps.publishProgress({ id, uid: generation.uid, version: generation.version, progress: value, at: Date.now() }),
    );
    const attempt: JobAttempt = {
      generation: generation as JobAttempt['generation'],
      token,
      signal: controller.signal,
      progress,
      async call(provider, call, action, { paid }) {
        let turnTaken = false;
        if (paid && unsentPaidCall) {
          // Recorded by the start, once the run had read the spend controls and taken the call's turn.
          unsentPaidCall = false;
          turnTaken = true;
        } else if (paid) {
          // Before anything is recorded: a held-back job goes back to its queue as if never started. The
          // first paid call goes on the answer the run had just before it started the generation.
          const held = spendChecked
            ? null
            : await queueStep('read the spend controls', () => deps.spend.holdBack(provider));
          if (held !== null) throw spendHeldBack(provider, held, deps.spend.retryAfterMs);
          // A cancel while the call waits for its turn finds it not recorded: the token comes back.
          await deps.gateway.takeTurn(job, provider, call, controller.signal);
          turnTaken = true;
          const allowed = await record('record the provider call', () => lifecycle.providerStarted(id));
          if (!allowed.ok) throw allowed.reason === 'call-limit' ? callLimitError(kind) : canceledError();
          generation = allowed.generation;
        }
        spendChecked = false;
        try {
          const result = await deps.gateway.call(job, controller.signal, provider, call, action, { turnTaken });
          if (paid) spendRecords.push(deps.spend.accepted(job, generation, provider));
          return result;
        } catch (error) {
          const outcome = outcomeOf(error);
          // Work the provider may have charged for is in the spend reports, whatever ended the call.
          if (paid && mayHaveDonePaidWork(outcome)) spendRecords.push(deps.spend.accepted(job, generation, provider));
          // The provider refused before doing any work, or did other work than asked: the user pays nothing.
          if (paid && !ownerPaysFor(outcome)) {
            await lifecycle.providerCallRefused(id).catch(() => undefined);
          }
          // Before the job ends: the next job to the provider must find it held back, not pay the refusal again.
          if (error instanceof ProviderOutOfCreditError) {
            await deps.spend.outOfCredit(error.provider, error.message).catch((failure: unknown) => {
              deps.log(`could not mark ${error.provider} out of credit: ${String(failure)}`);
            });
          }
          throw error;
        }
      },
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
      async pollAgainIn(ms) {
        await queueStep('delay the job', () => job.moveToDelayed(Date.now() + ms, token));
        throw new DelayedError();
      },
    };

    /** The run ends without sending the call its start counted: it costs the owner nothing. */
    async function giveBackUnsentPaidCall(): Promise<void> {
      if (!unsentPaidCall) return;
      unsentPaidCall = false;
      await record('give back the unsent paid call', () => lifecycle.providerCallRefused(id));
    }

    try {
      if (remainingMs <= 0) throw deadline;
      const artifact: StoredArtifact = await (deps.processors[kind] as GenerationProcessor<GenerationKind>)(
        job,
        attempt as never,
      );
      await giveBackUnsentPaidCall();
      await ended(job, await conclude(job, { completed: artifact }));
    } catch (error) {
      await giveBackUnsentPaidCall();
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
      const failure = asGenerationError(error, kind);
      if (failure.code === 'CANCELED') {
        // The cancel is in the record already (that is how it reached us); the job just stops.
        await job.log('canceled: stopped').catch(() => undefined);
        return;
      }
      if (failure === deadline) metrics.deadlineExceeded(kind);
      const attemptNumber = job.attemptsMade + 1;
      if (!isFinalAttempt(job, failure)) {
        metrics.retry(kind);
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
      await ended(job, await conclude(job, { failed: report }), failure.outcome);
      throw new UnrecoverableError(operatorMessage);
    } finally {
      clearTimeout(deadlineTimer);
      deps.active.delete(id);
      metrics.jobEnded(kind);
      await Promise.all(spendRecords);
    }
  };
}
