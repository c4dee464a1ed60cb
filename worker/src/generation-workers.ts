import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  CancellationRegistry,
  FileArtifactStore,
  QuotaLedger,
  connectRedis,
  queueName,
  type GenerationJobData,
  type GenerationJobResult,
} from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import type { WorkerConfig } from './config';
import { GenerationError } from './generation-error';
import { createImageProcessor } from './processors/image-processor';
import type { GenerationProcessor, ProcessorContext } from './processors/processor-context';
import { createSpeechProcessor } from './processors/speech-processor';
import { createVideoProcessor } from './processors/video-processor';
import { MiniMaxClient } from './providers/minimax-client';
import { OpenAISpeechClient } from './providers/openai-speech-client';
import { StabilityClient } from './providers/stability-client';

type AnyJob = Job<GenerationJobData, GenerationJobResult>;

const FALLBACK_ERROR = {
  image: 'IMAGE_FAILED',
  video: 'VIDEO_GENERATION_FAILED',
  speech: 'SPEECH_FAILED',
} as const satisfies Record<GenerationKind, string>;

function asGenerationError(error: unknown, kind: GenerationKind): GenerationError {
  if (error instanceof GenerationError) return error;
  return GenerationError.of(FALLBACK_ERROR[kind], { retryable: true });
}

function isFinalAttempt(job: AnyJob, error: GenerationError): boolean {
  return !error.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

export interface GenerationWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for active ones; after the grace period, hands them back to the queue. */
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
  };
}

export async function startGenerationWorkers(config: WorkerConfig): Promise<GenerationWorkers> {
  const commands = await connectRedis(config.redisUrl, 'blocking', 'worker-commands');
  const ledger = new QuotaLedger(commands, config.queuePrefix);
  const context = buildContext(config, commands);
  const processors: { [K in GenerationKind]: GenerationProcessor<K> } = {
    image: createImageProcessor(context),
    video: createVideoProcessor(context),
    speech: createSpeechProcessor(context),
  };

  /**
   * Every failure leaves the catalogue code and message on the job for readers; one that will not be
   * retried gives the token back before the job is marked failed, so a client that hears 'failed' and
   * re-reads its balance sees the token returned.
   */
  async function run(job: AnyJob, token: string | undefined): Promise<GenerationJobResult> {
    const kind = job.data.kind;
    try {
      const result = await (processors[kind] as GenerationProcessor<GenerationKind>)(job as never, token);
      await ledger.settle(job.data.uid, job.id!);
      return result;
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      const failure = asGenerationError(error, kind);
      await job.updateData({ ...job.data, error: { code: failure.code, message: failure.message } });
      await job.log(`attempt ${job.attemptsMade + 1} failed: ${failure.code} ${failure.message}`);
      if (!isFinalAttempt(job, failure)) throw new Error(failure.message);
      await ledger.refund(job.data.uid, kind, job.id!);
      throw new UnrecoverableError(failure.message);
    }
  }

  const workers = await Promise.all(
    config.kinds.map(async (kind) => {
      const connection = await connectRedis(config.redisUrl, 'blocking', `worker-${kind}`);
      const worker = new Worker<GenerationJobData, GenerationJobResult>(queueName(kind), run, {
        connection,
        prefix: config.queuePrefix,
        concurrency: config.concurrency[kind],
      });
      // Jobs that fail without passing through run() (stalled too often after crashes) still get their
      // token back; the refund is idempotent, so a second call for the same job does nothing.
      worker.on('failed', (job) => {
        if (job?.finishedOn !== undefined) void ledger.refund(job.data.uid, job.data.kind, job.id!).catch(() => undefined);
      });
      worker.on('error', (error) => console.error(`[worker:${kind}]`, error.message));
      return { worker, connection };
    }),
  );

  return {
    workers: workers.map(({ worker }) => worker),
    async close(graceMs = config.shutdownGraceMs) {
      await Promise.all(
        workers.map(async ({ worker }) => {
          const graceful = worker.close();
          const timedOut = new Promise<'timeout'>((resolve) => setTimeout(resolve, graceMs, 'timeout').unref());
          // Past the grace period the active jobs are released; their locks lapse and another worker takes them.
          if ((await Promise.race([graceful, timedOut])) === 'timeout') await worker.close(true);
        }),
      );
      await Promise.all(workers.map(({ connection }) => connection.quit().catch(() => undefined)));
      await commands.quit().catch(() => undefined);
    },
  };
}
