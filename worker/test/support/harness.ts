import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  CancellationRegistry,
  QuotaLedger,
  connectRedis,
  generationJobOptions,
  newGenerationId,
  queueName,
  type GenerationJobData,
  type RequestByKind,
} from '@mediagen/core';
import { createSimulator, type Simulator, type SimulatorOptions } from '@mediagen/simulator';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import { loadWorkerConfig, startGenerationWorkers, type GenerationWorkers, type WorkerConfig } from '../../src';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WORKSPACE_ROOT = resolve(import.meta.dirname, '../../..');

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  what = 'a condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A worker started as its own OS process (`tsx worker/src/main.ts`), as in production. */
export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** WORKER_NAME, as recorded in processedBy of the jobs it takes. */
  name: string;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Signals the worker's whole process group (tsx and the node process running the worker). */
  kill(signal: NodeJS.Signals): void;
}

/** One isolated world per test file: its own key prefix, simulator, data directory and workers. */
export class WorkerHarness {
  readonly prefix = `test-worker-${randomUUID()}`;
  simulator!: Simulator;
  redis!: Redis;
  ledger!: QuotaLedger;
  config!: WorkerConfig;
  dataDir!: string;
  cancellations!: CancellationRegistry;
  private readonly queues = new Map<GenerationKind, Queue>();
  private readonly events = new Map<GenerationKind, QueueEvents>();
  private readonly eventConnections: Redis[] = [];
  private readonly pools: GenerationWorkers[] = [];
  private readonly processes: WorkerProcess[] = [];

  async start(simulatorOptions: SimulatorOptions = {}, env: Record<string, string> = {}): Promise<void> {
    this.simulator = createSimulator({ videoQueueingMs: 100, videoProcessingMs: 200, ...simulatorOptions });
    await this.simulator.listen();
    this.dataDir = await mkdtemp(join(tmpdir(), 'mediagen-worker-'));
    this.config = loadWorkerConfig({
      REDIS_URL,
      QUEUE_PREFIX: this.prefix,
      DATA_DIR: this.dataDir,
      SIMULATOR_URL: this.simulator.url,
      VIDEO_POLL_INTERVAL_MS: '40',
      SHUTDOWN_GRACE_MS: '2000',
      ...env,
    });
    this.redis = await connectRedis(REDIS_URL, 'producer');
    this.ledger = new QuotaLedger(this.redis, this.prefix);
    this.cancellations = new CancellationRegistry(this.redis, this.prefix);
    for (const kind of GENERATION_KINDS) {
      this.queues.set(kind, new Queue(queueName(kind), { connection: this.redis, prefix: this.prefix }));
      const connection = await connectRedis(REDIS_URL, 'blocking');
      this.eventConnections.push(connection);
      const events = new QueueEvents(queueName(kind), { connection, prefix: this.prefix });
      await events.waitUntilReady();
      this.events.set(kind, events);
    }
  }

  async startWorkers(overrides: Partial<WorkerConfig> = {}): Promise<GenerationWorkers> {
    const pool = await startGenerationWorkers({ ...this.config, ...overrides });
    this.pools.push(pool);
    return pool;
  }

  /** Starts `worker/src/main.ts` in a child process against this harness's Redis prefix and simulator. */
  async spawnWorker(env: Record<string, string> = {}): Promise<WorkerProcess> {
    const name = env.WORKER_NAME ?? `worker-${randomUUID().slice(0, 8)}`;
    const child = spawn(join(WORKSPACE_ROOT, 'node_modules/.bin/tsx'), ['worker/src/main.ts'], {
      cwd: WORKSPACE_ROOT,
      env: {
        PATH: process.env.PATH,
        REDIS_URL,
        QUEUE_PREFIX: this.prefix,
        DATA_DIR: this.dataDir,
        SIMULATOR_URL: this.simulator.url,
        VIDEO_POLL_INTERVAL_MS: '40',
        WORKER_METRICS_PORT: '0',
        ...env,
        WORKER_NAME: name,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: tsx runs the worker in a child node process, and only a signal to the
      // whole group reaches both (tsx relays SIGTERM itself, but nothing can relay SIGKILL).
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    const worker: WorkerProcess = { child, pid: child.pid!, name, output: () => output, exited, kill };
    this.processes.push(worker);
    await Promise.race([
      waitFor(() => /\[worker\] \S+ running/.test(output), 30_000, 'the worker process to start'),
      exited.then((code) => {
        throw new Error(`worker process exited with ${code} before starting:\n${output}`);
      }),
    ]);
    return worker;
  }

  /** The metrics registry of the n-th pool started with startWorkers. */
  metricsOf(index: number) {
    return this.pools[index]!.metrics.registry;
  }

  queue(kind: GenerationKind): Queue {
    return this.queues.get(kind)!;
  }

  queueEvents(kind: GenerationKind): QueueEvents {
    return this.events.get(kind)!;
  }

  /** Charges a token like the API does, then enqueues. */
  async submit<K extends GenerationKind>(
    kind: K,
    request: RequestByKind[K],
    options: { uid?: string; attempts?: number; backoffMs?: number } = {},
  ): Promise<{ job: Job<GenerationJobData<K>>; uid: string }> {
    const uid = options.uid ?? `user-${randomUUID()}`;
    const id = newGenerationId(kind);
    const charge = await this.ledger.consume(uid, kind, id);
    if (charge.status !== 'charged') throw new Error(`could not charge a token: ${charge.status}`);
    const data: GenerationJobData<K> = { uid, kind, request, createdAt: Date.now() };
    const job = await this.queue(kind).add(
      kind,
      data,
      generationJobOptions(id, { attempts: options.attempts ?? 3, backoffMs: options.backoffMs ?? 20 }),
    );
    return { job: job as Job<GenerationJobData<K>>, uid };
  }

  async settled(kind: GenerationKind, job: Job, timeoutMs = 20_000): Promise<{ state: string; job: Job }> {
    await job.waitUntilFinished(this.queueEvents(kind), timeoutMs).catch(() => undefined);
    const fresh = (await this.queue(kind).getJob(job.id!))!;
    return { state: await fresh.getState(), job: fresh };
  }

  async stop(): Promise<void> {
    for (const worker of this.processes) worker.kill('SIGKILL');
    await Promise.all(this.processes.map((worker) => worker.exited));
    await Promise.all(this.pools.map((pool) => pool.close(1000)));
    for (const events of this.events.values()) await events.close();
    for (const connection of this.eventConnections) connection.disconnect();
    for (const queue of this.queues.values()) await queue.close();
    const keys = await this.redis.keys(`${this.prefix}:*`);
    if (keys.length > 0) await this.redis.del(...keys);
    await this.redis.quit();
    await this.simulator.close();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

export const imageRequest = (prompt = 'a lighthouse at dusk'): RequestByKind['image'] => ({ prompt, seed: 42 });
export const videoRequest = (prompt = 'waves rolling onto a beach'): RequestByKind['video'] => ({
  prompt,
  quality: 'standard',
  duration: 6,
  style: 'cinematic',
});
export const speechRequest = (input = 'Hello from the generation service'): RequestByKind['speech'] => ({
  input,
  voice: 'nova',
  language: 'en-US',
  speed: 1,
});
