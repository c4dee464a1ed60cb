import { vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { QueueEvents, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  GenerationJobOwner,
  GenerationLifecycle,
  connectRedis,
  createArtifactStore,
  generationJobOptions,
  newGenerationId,
  openDatabase,
  parseProgressEvent,
  progressChannel,
  queueName,
  type GenerationJobData,
  type GenerationRecord,
  type RecordDatabase,
  type RequestByKind,
} from '@mediagen/core';
import { createSimulator, type Simulator, type SimulatorOptions } from '@mediagen/simulator';
import {
  DEFAULT_PLAN_RULES,
  GENERATION_KINDS,
  isFinalStatus,
  type GenerationKind,
  type TokenBalance,
} from '@mediagen/shared';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { loadWorkerConfig, startGenerationWorkers, type GenerationWorkers, type WorkerConfig } from '../../src';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WORKSPACE_ROOT = resolve(import.meta.dirname, '../../..');

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

export interface Settled {
  /** The job's BullMQ state once it finished (`completed` even for a generation let go). */
  state: string;
  job: Job<GenerationJobData>;
  /** The generation as the record holds it: the truth. */
  generation: GenerationRecord;
}

/** One isolated world per test file: its own database, key prefix, simulator, data directory and workers. */
export class WorkerHarness {
  readonly prefix = `test-worker-${randomUUID()}`;
  simulator!: Simulator;
  redis!: Redis;
  config!: WorkerConfig;
  dataDir!: string;
  database!: TestDatabase;
  records!: RecordDatabase;
  lifecycle!: GenerationLifecycle;
  /** The queue side as server and worker have it: the aging and reconciler tests move jobs through it. */
  jobs!: GenerationJobOwner;
  private readonly events = new Map<GenerationKind, QueueEvents>();
  private readonly eventConnections: Redis[] = [];
  private readonly pools: GenerationWorkers[] = [];
  private readonly processes: WorkerProcess[] = [];

  async start(simulatorOptions: SimulatorOptions = {}, env: Record<string, string> = {}): Promise<void> {
    this.simulator = createSimulator({ videoQueueingMs: 100, videoProcessingMs: 200, ...simulatorOptions });
    await this.simulator.listen();
    this.dataDir = await mkdtemp(join(tmpdir(), 'mediagen-worker-'));
    this.database = await createTestDatabase('worker');
    this.config = loadWorkerConfig({
      MEDIAGEN_MODE: 'development',
      DATABASE_URL: this.database.url,
      REDIS_URL,
      QUEUE_PREFIX: this.prefix,
      DATA_DIR: this.dataDir,
      SIMULATOR_URL: this.simulator.url,
      VIDEO_POLL_INTERVAL_MS: '40',
      SHUTDOWN_GRACE_MS: '2000',
      // The reconciler runs when a test asks for it (pool.reconcile()), not on a timer.
      RECONCILE_INTERVAL_MS: '3600000',
      ...env,
    });
    // Few connections, and a wait for one that is a hang guard: eight generations' settle checks share
    // them, and on a loaded host a wait over the default 5 s failed a test.
    this.records = openDatabase(this.database.url, { maxConnections: 3, connectionTimeoutMs: 30_000 });
    this.lifecycle = new GenerationLifecycle(this.records.db);
    this.redis = await connectRedis(REDIS_URL, 'producer');
    this.jobs = new GenerationJobOwner({
      connection: this.redis,
      prefix: this.prefix,
      retry: this.config.jobs,
      retention: this.config.jobRetention,
      artifacts: await createArtifactStore(this.config.artifactStore),
      log: { warn: () => undefined },
    });
    for (const kind of GENERATION_KINDS) {
      const connection = await connectRedis(REDIS_URL, 'blocking');
      this.eventConnections.push(connection);
      const events = new QueueEvents(queueName(kind), { connection, prefix: this.prefix });
      await events.waitUntilReady();
      this.events.set(kind, events);
    }
  }

  async startWorkers(
    overrides: Partial<WorkerConfig> = {},
    options: { clock?: () => number } = {},
  ): Promise<GenerationWorkers> {
    const pool = await startGenerationWorkers({ ...this.config, ...overrides }, options);
    this.pools.push(pool);
    return pool;
  }

  /**
   * Starts the worker's production bundle (`worker/dist/main.js`, built for the run by the project's global
   * setup) in a child process against this harness's database, prefix and simulator.
   */
  async spawnWorker(env: Record<string, string> = {}): Promise<WorkerProcess> {
    const name = env.WORKER_NAME ?? `worker-${randomUUID().slice(0, 8)}`;
    // node itself runs the worker: the pid is the worker, and a signal reaches it alone.
    const child = spawn(process.execPath, ['worker/dist/main.js'], {
      cwd: WORKSPACE_ROOT,
      env: {
        MEDIAGEN_MODE: 'development',
        PATH: process.env.PATH,
        DATABASE_URL: this.database.url,
        REDIS_URL,
        QUEUE_PREFIX: this.prefix,
        DATA_DIR: this.dataDir,
        SIMULATOR_URL: this.simulator.url,
        VIDEO_POLL_INTERVAL_MS: '40',
        WORKER_METRICS_PORT: '0',
        RECONCILE_INTERVAL_MS: '3600000',
        ...env,
        WORKER_NAME: name,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'close', not 'exit': the process may have ended before the last of what it printed has been read.
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
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
      vi.waitUntil(() => /\[worker\] \S+ running/.test(output), { timeout: 30_000, interval: 25 }),
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

  queue(kind: GenerationKind): Queue<GenerationJobData> {
    return this.jobs.queue(kind);
  }

  queueEvents(kind: GenerationKind): QueueEvents {
    return this.events.get(kind)!;
  }

  /** Records the generation (charging a token) and enqueues its job, as the API does. */
  async submit<K extends GenerationKind>(
    kind: K,
    request: RequestByKind[K],
    options: { uid?: string; attempts?: number; backoffMs?: number; priority?: number } = {},
  ): Promise<{ job: Job<GenerationJobData>; uid: string; id: string }> {
    const uid = options.uid ?? `user-${randomUUID()}`;
    const prompt = 'prompt' in request ? request.prompt : request.input;
    const outcome = await this.lifecycle.submit({
      id: newGenerationId(kind),
      uid,
      kind,
      request: request as unknown as Record<string, unknown>,
      prompt,
      maxInFlight: 100,
    });
    if (outcome.status !== 'accepted') throw new Error(`could not submit: ${outcome.status}`);
    const { id } = outcome.generation;
    const job = await this.queue(kind).add(
      kind,
      { kind },
      generationJobOptions(
        id,
        { attempts: options.attempts ?? 3, backoffMs: options.backoffMs ?? 20 },
        { completedSeconds: 3600, failedSeconds: 3600 },
        options.priority ?? DEFAULT_PLAN_RULES.free.queuePriority,
      ),
    );
    return { job, uid, id };
  }

  /** The token movements of a generation, in order. */
  ledgerOf(id: string) {
    return this.records.db
      .selectFrom('token_ledger')
      .select(['movement', 'amount'])
      .where('generation_id', '=', id)
      .orderBy('id')
      .execute();
  }

  /** What the record says a generation's paid calls cost, in US dollars. */
  async costOf(id: string): Promise<number> {
    const row = await this.records.db
      .selectFrom('generations')
      .select('cost_usd')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.cost_usd);
  }

  /** Waits until the generation has ended in the record and its job has finished in the queue. */
  async settled(kind: GenerationKind, job: Job, timeoutMs = 20_000): Promise<Settled> {
    const generation = await vi.waitUntil(
      async () => {
        const record = await this.lifecycle.find(job.id!);
        return record !== null && isFinalStatus(record.status) ? record : undefined;
      },
      { timeout: timeoutMs, interval: 100 },
    );
    await job.waitUntilFinished(this.queueEvents(kind), timeoutMs).catch(() => undefined);
    const fresh = (await this.queue(kind).getJob(job.id!))!;
    return { state: await fresh.getState(), job: fresh, generation };
  }

  /** Collects the progress workers publish from now on, per generation, until `stop`. */
  async watchProgress(): Promise<{ of(id: string): number[]; stop(): Promise<void> }> {
    const subscriber = await connectRedis(REDIS_URL, 'blocking');
    const seen = new Map<string, number[]>();
    subscriber.on('message', (_channel: string, message: string) => {
      const event = parseProgressEvent(message);
      if (event !== null) seen.set(event.id, [...(seen.get(event.id) ?? []), event.progress]);
    });
    await subscriber.subscribe(progressChannel(this.prefix));
    return {
      of: (id) => seen.get(id) ?? [],
      stop: async () => {
        await subscriber.quit();
      },
    };
  }

  async balance(uid: string): Promise<TokenBalance> {
    return (await this.lifecycle.balance(uid)).tokens;
  }

  async artifactBytes(generation: GenerationRecord): Promise<Buffer> {
    if (generation.artifact === null) throw new Error(`${generation.id} has no artifact`);
    return readFile(join(this.config.artifactsDir, generation.artifact.key));
  }

  async stop(): Promise<void> {
    for (const worker of this.processes) worker.kill('SIGKILL');
    await Promise.all(this.processes.map((worker) => worker.exited));
    await Promise.all(this.pools.map((pool) => pool.close(1000)));
    for (const events of this.events.values()) await events.close();
    for (const connection of this.eventConnections) connection.disconnect();
    await this.jobs.close();
    const keys = await this.redis.keys(`${this.prefix}:*`);
    if (keys.length > 0) await this.redis.del(...keys);
    await this.redis.quit();
    await this.records.close();
    await this.database.drop();
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
