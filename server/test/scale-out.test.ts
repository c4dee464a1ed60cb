import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import type { Generation, GenerationKind } from '@mediagen/shared';
import { freePort, startProcess, waitForHttp, type ManagedProcess } from '@mediagen/scripts/processes';
import { deleteKeys } from '@mediagen/testing';
import { connectUserSocket, REDIS_URL } from './support/app';
import { apiClient, imageRequest } from './support/requests';
import { authEmulatorHost } from '@mediagen/testing/vitest';
import { createTestUser } from './support/users';

/**
 * Scale-out as operators run it: two server processes and two worker processes on one Redis, each the
 * production bundle (built for the run by the project's global setup). A client on server A must see
 * every event of a job submitted through server B, each exactly once.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const prefix = `test-scale-${randomUUID()}`;
const processes: ManagedProcess[] = [];
let simulator: Simulator;
let dataDir: string;
let database: TestDatabase;
let serverA: string;
let serverB: string;

const quiet = () => undefined;

beforeAll(async () => {
  simulator = createSimulator({ latencyMs: 200, videoQueueingMs: 300, videoProcessingMs: 600 });
  await simulator.listen();
  dataDir = await mkdtemp(join(tmpdir(), 'mediagen-scale-'));
  database = await createTestDatabase('scale');
  const shared = {
    ...process.env,
    MEDIAGEN_MODE: 'development',
    DATABASE_URL: database.url,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  for (const name of ['worker-1', 'worker-2']) {
    processes.push(
      startProcess(name, process.execPath, ['worker/dist/main.js'], {
        cwd: ROOT,
        env: { ...shared, SIMULATOR_URL: simulator.url, VIDEO_POLL_INTERVAL_MS: '60', WORKER_METRICS_PORT: '0' },
        sink: quiet,
      }),
    );
  }
  const ports = [await freePort(), await freePort()];
  for (const port of ports) {
    processes.push(
      startProcess(`server-${port}`, process.execPath, ['server/dist/main.js'], {
        cwd: ROOT,
        env: { ...shared, PORT: String(port), HOST: '127.0.0.1', FIREBASE_AUTH_EMULATOR_HOST: authEmulatorHost() },
        sink: quiet,
      }),
    );
  }
  [serverA, serverB] = ports.map((port) => `http://127.0.0.1:${port}`) as [string, string];
  await Promise.all([serverA, serverB].map((origin) => waitForHttp(`${origin}/readyz`, 30_000, (s) => s === 200)));
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((process) => process.stop(5000)));
  await simulator.close();
  const redis = new Redis(REDIS_URL);
  await deleteKeys(redis, `${prefix}:*`);
  await redis.quit();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const REQUESTS = {
  image: imageRequest(),
  video: { kind: 'video', prompt: 'a paper boat on a river' },
  speech: { kind: 'speech', input: 'Scaling out', voice: 'onyx', language: 'en-GB' },
} as const;

it('a client on server A hears every transition of jobs submitted through server B once, in version order; nobody else does', async () => {
  const user = await createTestUser();
  const onA = await connectUserSocket(serverA, user.idToken);
  const bystander = await connectUserSocket(serverB, (await createTestUser()).idToken);
  try {
    const submitted: Generation[] = [];
    for (const kind of ['image', 'video', 'speech'] as GenerationKind[]) {
      const { status, body } = await apiClient(serverB, user).submit(REQUESTS[kind]);
      expect(status).toBe(202);
      submitted.push(body);
    }
    for (const job of submitted) {
      await vi.waitUntil(() => onA.updates.find((u) => u.id === job.id && u.status === 'completed'), {
        timeout: 30_000,
        interval: 25,
      });
    }
    // Let any duplicate still in flight arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));

    for (const job of submitted) {
      const events = onA.updates.filter((update) => update.id === job.id);
      const completed = events.find((update) => update.status === 'completed')!;
      // Every version from the first to the last reached the owner, in order; a version repeats only to
      // carry rising progress (or a new place in line), never as a duplicate of what was already said.
      const versions = events.map((update) => update.version);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect([...new Set(versions)]).toEqual(Array.from({ length: completed.version }, (_, index) => index + 1));
      const fingerprints = events.map((update) => `${update.version}:${update.progress}:${update.queue?.position}`);
      expect(new Set(fingerprints).size).toBe(fingerprints.length);
      const progress = events.map((update) => update.progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(events.filter((update) => update.status === 'queued').length).toBeGreaterThanOrEqual(1);
    }
    expect(bystander.updates).toEqual([]);
  } finally {
    onA.socket.disconnect();
    bystander.socket.disconnect();
  }
});
