import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  CancellationRegistry,
  FileArtifactStore,
  QuotaLedger,
  RecentRunTimes,
  cancellationChannel,
  connectRedis,
  queueName,
  refundOrphanedCharges,
  videoTaskKey,
  type GenerationJobData,
  type GenerationJobResult,
} from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import type { WorkerConfig } from './config';
import { GenerationError, canceledError, deadlineError } from './generation-error';
import { WorkerMetrics } from './observability/worker-metrics';
import { createImageProcessor } from './processors/image-processor';
import type { GenerationProcessor, JobAttempt, ProcessorContext } from './processors/processor-context';
import { createSpeechProcessor } from './processors/speech-processor';
import { createVideoProcessor } from './processors/video-processor';
import { MiniMaxClient } from './providers/minimax-client';
import { OpenAISpeechClient } from './providers/openai-speech-client';
import { ProviderBreakers } from './providers/provider-breakers';
import { BREAKER_FAILURES, ProviderBusyError } from './providers/provider-calls';
import { ProviderGateway, isProviderFault } from './providers/provider-gateway';
import { StabilityClient } from './providers/stability-client';

type AnyJob = Job<GenerationJobData, GenerationJobResult>;

const FALLBACK_ERROR = {
  image: 'IMAGE_FAILED',
  video: 'VIDEO_GENERATION_FAILED',
  speech: 'SPEECH_FAILED',
} as const satisfies Record<GenerationKind, string>;

/** A task index entry lives as long as a failed job stays readable. */
const VIDEO_TASK_INDEX_TTL_SECONDS = 30 * 24 * 60 * 60;
const ORPHANED_CHARGE_SWEEP_MS = 5 * 60_000;

/**
 * Without a `limiter`, BullMQ's fetch script ignores a manual `rateLimit()` set by another process; a
 * limit no queue ever reaches makes the 429 pause shared by every worker of the queue.
 */
const NO_STATIC_LIMIT = { max: 1_000_000_000, duration: 1000 };

/** The abort reason of a job released at shutdown: it goes back to its queue, unharmed. */
class HandBack extends Error {
  constructor() {
    super('worker shutting down: job handed back to its queue');
  }
}

function asGenerationError(error: unknown, kind: GenerationKind): GenerationError {
  if (error instanceof GenerationError) return error;
  return GenerationError.of(FALLBACK_ERROR[kind], { retryable: true });
}

function isFinalAttempt(job: AnyJob, error: GenerationError): boolean {
  return !error.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** The delay BullMQ will apply before the next attempt (builtin strategies, no jitter). */
function nextRetryDelayMs(job: AnyJob): number {
  const backoff = job.opts.backoff;
  if (backoff === undefined) return 0;
  if (typeof backoff === 'number') return backoff;
  const delay = backoff.delay ?? 0;
  return backoff.type === 'exponential' ? Math.round(2 ** job.attemptsMade * delay) : delay;
}

export interface GenerationWorkers {
  workers: Worker[];
  metrics: WorkerMetrics;
  /** True while every worker runs and no shutdown has begun. */
  healthy(): boolean;
  /**
   * Stops taking jobs and waits up to `graceMs` for active ones; then aborts what is still running and
   * puts those jobs back in their queue (no attempt used), so another worker takes them at once.
   */
  close(graceMs?: number): Promise<void>;
}

function buildContext(config: WorkerConfig, redis: Redis): ProcessorContext {
  return {
    artifacts: new FileArtifactStore(config.artifactsDir),
    cancellations: new CancellationRegistry(redis, config.queuePrefix),
    stability: new StabilityClient(config.stability),
    minimax: new MiniMaxClient(config.minimax),
    speech: new OpenAISpeechClient(config.openai),
    videoPolling: config.videoPolling,
    async indexVideoTask(taskId, generationId) {
      await redis.set(videoTaskKey(config.queuePrefix, taskId), generationId, 'EX', VIDEO_TASK_INDEX_TTL_SECONDS);
    },
  };
}

export async function startGenerationWorkers(
  config: WorkerConfig,
  options: { metrics?: WorkerMetrics } = {},
): Promise<GenerationWorkers> {
  const commands = await connectRedis(config.redisUrl, 'blocking', 'worker-commands');
  const subscriber = await connectRedis(config.redisUrl, 'blocking', 'worker-cancellations');
  const ledger = new QuotaLedger(commands, config.queuePrefix);
  const recentRuns = new RecentRunTimes(commands, config.queuePrefix);
  const context = buildContext(config, commands);
  const metrics = options.metrics ?? new WorkerMetrics();
  const breakers = new ProviderBreakers(
    config.breaker,
    (error) => isProviderFault(error, BREAKER_FAILURES),
    (provider, state) => {
      metrics.breaker(provider, state);
      console.warn(`[worker] ${provider} circuit breaker ${state}`);
    },
  );
  const gateway = new ProviderGateway(breakers, metrics);
  const processors: { [K in GenerationKind]: GenerationProcessor<K> } = {
    image: createImageProcessor(context),
    video: createVideoProcessor(context),
    speech: createSpeechProcessor(context),
  };
  const workersByKind = new Map<GenerationKind, Worker<GenerationJobData, GenerationJobResult>>();
  const active = new Map<string, AbortController>();
  let stopping = false;

  // A cancel published by any server (or the queues CLI) aborts the provider call in flight here.
  subscriber.on('message', (_channel: string, generationId: string) => {
    active.get(generationId)?.abort(canceledError());
  });
  await subscriber.subscribe(cancellationChannel(config.queuePrefix));

  // Tokens charged for jobs that never ran (see refundOrphanedCharges); one worker per interval sweeps.
  const orphanSweep = setInterval(() => void sweepOrphanedCharges().catch(() => undefined), ORPHANED_CHARGE_SWEEP_MS);
  orphanSweep.unref();
  async function sweepOrphanedCharges(): Promise<void> {
    const lockKey = `${config.queuePrefix}:orphaned-charge-sweep`;
    if ((await commands.set(lockKey, config.workerName, 'PX', ORPHANED_CHARGE_SWEEP_MS, 'NX')) !== 'OK') return;
    const refunded = await refundOrphanedCharges(commands, ledger, config.queuePrefix);
    if (refunded > 0) console.warn(`[worker] gave back ${refunded} tokens charged for jobs that never ran`);
  }

  async function refund(job: AnyJob): Promise<void> {
    if (await ledger.refund(job.data.uid, job.data.kind, job.id!)) metrics.refunded(job.data.kind);
  }

  /**
   * The first time a worker took the job, kept in its data so polls and retries share one deadline. The
   * write goes out with the run instead of before it: `updateData` sets `job.data` at once, so the
   * processor's own data writes carry it, and they reach Redis after it on the same connection.
   */
  function recordStartedAt(job: AnyJob): { at: number; written: Promise<void> } {
    if (job.data.startedAt !== undefined) return { at: job.data.startedAt, written: Promise.resolve() };
    const at = job.processedOn ?? Date.now();
    metrics.firstStarted(job.data.kind, at - job.timestamp);
    return { at, written: job.updateData({ ...job.data, startedAt: at }) };
  }

  /** From the first start, across polls and retries, until now. */
  function runMs(job: AnyJob): number {
    return Date.now() - (job.data.startedAt ?? job.processedOn ?? Date.now());
  }

  /**
   * Every failure leaves the catalogue code and message on the job for readers; one that will not be
   * retried gives the token back before the job is marked failed, so a client that hears 'failed' and
   * re-reads its balance sees the token returned.
   */
  async function run(job: AnyJob, token: string | undefined): Promise<GenerationJobResult> {
    const kind = job.data.kind;
    const controller = new AbortController();
    const deadline = deadlineError(kind);
    let deadlineTimer: NodeJS.Timeout | undefined;
    active.set(job.id!, controller);
    metrics.jobStarted(kind);
    const attempt: JobAttempt = {
      token,
      signal: controller.signal,
      call: (provider, call, action) => gateway.call(job, controller.signal, provider, call, action),
    };
    try {
      const startedAt = recordStartedAt(job);
      const remainingMs = startedAt.at + config.jobDeadlineMs - Date.now();
      if (remainingMs <= 0) throw deadline;
      deadlineTimer = setTimeout(() => controller.abort(deadline), remainingMs);
      const [result] = await Promise.all([
        (processors[kind] as GenerationProcessor<GenerationKind>)(job as never, attempt),
        startedAt.written,
      ]);
      await ledger.settle(job.data.uid, job.id!);
      const ranMs = runMs(job);
      metrics.completed(kind, ranMs);
      // Only the queue ETA reads it: a run time lost to a Redis hiccup is not worth failing the job for.
      void recentRuns.record(kind, ranMs).catch(() => undefined);
      return result;
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      if (error instanceof HandBack) {
        await job.moveToWait(token);
        metrics.handedBackJob(kind);
        await job.log('worker shutting down: handed back to the queue (attempt not used)').catch(() => undefined);
        throw new WaitingError();
      }
      if (error instanceof ProviderBusyError) {
        const waitMs = error.retryAfterMs ?? config.defaultRetryAfterMs;
        await workersByKind.get(kind)!.rateLimit(waitMs);
        metrics.queueRateLimited(kind, error.reason);
        const why = error.reason === 'rate_limited' ? `${error.provider} rate limit (${error.message})` : error.message;
        await job.log(`${why}: ${kind} queue paused for ${waitMs} ms; job back to waiting, attempt not used`);
        throw Worker.RateLimitError();
      }
      const failure = asGenerationError(error, kind);
      await job.updateData({ ...job.data, error: { code: failure.code, message: failure.message } });
      if (failure === deadline) {
        metrics.deadlineExceeded(kind);
        await job.log(`deadline of ${config.jobDeadlineMs} ms since the job first started is exceeded`);
      }
      const attemptNumber = job.attemptsMade + 1;
      if (!isFinalAttempt(job, failure)) {
        metrics.retry(kind);
        await job.log(
          `attempt ${attemptNumber} failed: ${failure.code} ${failure.message}; next try in ${nextRetryDelayMs(job)} ms`,
        );
        throw new Error(failure.message);
      }
      await job.log(`attempt ${attemptNumber} failed: ${failure.code} ${failure.message}; no retry, token refunded`);
      await refund(job);
      metrics.failed(kind, failure.code, runMs(job));
      throw new UnrecoverableError(failure.message);
    } finally {
      clearTimeout(deadlineTimer);
      active.delete(job.id!);
      metrics.jobEnded(kind);
    }
  }

  const workers = await Promise.all(
    config.kinds.map(async (kind) => {
      const connection = await connectRedis(config.redisUrl, 'blocking', `worker-${kind}`);
      const worker = new Worker<GenerationJobData, GenerationJobResult>(queueName(kind), run, {
        connection,
        prefix: config.queuePrefix,
        concurrency: config.concurrency[kind],
        // Recorded on the job as processedBy, so operators see which process ran it.
        name: config.workerName,
        // A crashed worker's jobs go back to the queue after about this long.
        lockDuration: config.lockMs,
        stalledInterval: config.lockMs,
        limiter: config.rateLimits[kind] ?? NO_STATIC_LIMIT,
      });
      workersByKind.set(kind, worker);
      // Jobs that fail without passing through run() (stalled too often after crashes) still get their
      // token back; the refund is idempotent, so a second call for the same job does nothing.
      worker.on('failed', (job) => {
        if (job?.finishedOn !== undefined) void refund(job).catch(() => undefined);
      });
      worker.on('error', (error) => console.error(`[worker:${kind}]`, error.message));
      return { worker, connection };
    }),
  );

  async function closeWorkers(graceMs: number): Promise<void> {
    const graceful = Promise.all(workers.map(({ worker }) => worker.close()));
    const within = (ms: number) =>
      Promise.race([
        graceful.then(() => true),
        new Promise<false>((resolve) => setTimeout(resolve, ms, false).unref()),
      ]);
    if (await within(graceMs)) return;
    // Past the grace period: stop what is still running and put it back in its queue for another worker.
    for (const controller of active.values()) controller.abort(new HandBack());
    if (await within(10_000)) return;
    // Still stuck (a step that ignores the signal): let go; the lock lapses and the stalled check moves it.
    await Promise.all(workers.map(({ worker }) => worker.close(true)));
  }

  return {
    workers: workers.map(({ worker }) => worker),
    metrics,
    healthy: () => !stopping && workers.every(({ worker }) => worker.isRunning()),
    async close(graceMs = config.shutdownGraceMs) {
      stopping = true;
      clearInterval(orphanSweep);
      await closeWorkers(graceMs);
      breakers.shutdown();
      await subscriber.quit().catch(() => undefined);
      await Promise.all(workers.map(({ connection }) => connection.quit().catch(() => undefined)));
      await commands.quit().catch(() => undefined);
    },
  };
}
