import { Worker, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectRedis, queueName, queueTelemetry, type GenerationJobData } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import type { WorkerConfig } from './config';

/**
 * BullMQ reads a manual `rateLimit()` (the pause after a provider 429 or an open breaker) only in workers
 * that have a `limiter` ("Don't forget to pass limiter options into your worker's options", BullMQ's
 * rate-limiting guide); a limit no queue ever reaches gives every worker one without limiting anything.
 */
const NO_STATIC_LIMIT = { max: 1_000_000_000, duration: 1000 };

const IDLE_BLOCK_SECONDS = 1;

/** One BullMQ Worker per kind this process serves, each on a blocking connection of its own. */
export interface KindWorkers {
  workers: Worker<GenerationJobData>[];
  /** Pauses a kind's queue for every worker, in every process, for `ms` (BullMQ's manual rate limit). */
  pause(kind: GenerationKind, ms: number): Promise<void>;
  running(): boolean;
  /**
   * Stops taking jobs and waits up to `graceMs` for active ones; then `handBack()` aborts what still runs
   * (its jobs go back to their queue), and past another 10 s the workers are let go (a step that ignores
   * the signal: its lock lapses and the stalled check moves the job).
   */
  close(graceMs: number, handBack: () => void): Promise<void>;
}

export async function startKindWorkers(config: WorkerConfig, run: Processor<GenerationJobData>): Promise<KindWorkers> {
  const connections: Redis[] = [];
  const byKind = new Map<GenerationKind, Worker<GenerationJobData>>();
  const workers = await Promise.all(
    config.kinds.map(async (kind) => {
      const connection = await connectRedis(config.redis, 'blocking', `worker-${kind}`);
      connections.push(connection);
      const worker = new Worker<GenerationJobData>(queueName(kind), run, {
        connection,
        prefix: config.queuePrefix,
        concurrency: config.concurrency[kind],
        // Recorded on the job as processedBy, so operators see which process ran it.
        name: config.workerName,
        // A crashed worker's jobs go back to the queue after about this long.
        lockDuration: config.lockMs,
        stalledInterval: config.lockMs,
        limiter: config.rateLimits[kind] ?? NO_STATIC_LIMIT,
        // A run continues the trace its job carries (the submission's), across retries, polls and takeovers.
        telemetry: queueTelemetry(),
        // A pause after a provider's 429 does not wake a worker blocked waiting for a job: it sleeps out its
        // block timeout (BullMQ's default, 5 s) before it sees the queue again. One second keeps the queue's
        // restart close to the end of the pause for one cheap blocking read a second per idle kind.
        drainDelay: IDLE_BLOCK_SECONDS,
      });
      byKind.set(kind, worker);
      worker.on('error', (error) => console.error(`[worker:${kind}]`, error.message));
      return worker;
    }),
  );

  async function close(graceMs: number, handBack: () => void): Promise<void> {
    const graceful = Promise.all(workers.map((worker) => worker.close()));
    const within = (ms: number) =>
      Promise.race([
        graceful.then(() => true),
        new Promise<false>((resolve) => setTimeout(resolve, ms, false).unref()),
      ]);
    if (!(await within(graceMs))) {
      handBack();
      if (!(await within(10_000))) await Promise.all(workers.map((worker) => worker.close(true)));
    }
    await Promise.all(connections.map((connection) => connection.quit().catch(() => undefined)));
  }

  return {
    workers,
    pause: async (kind, ms) => {
      await byKind.get(kind)?.rateLimit(ms);
    },
    running: () => workers.every((worker) => worker.isRunning()),
    close,
  };
}
