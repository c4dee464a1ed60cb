import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, queueName, type RecordDatabase } from '@mediagen/core';
import { startTestS3Server, type TestS3Server } from '@mediagen/core/testing';
import { createTestUser, type TestUser } from '@mediagen/server/testing';
import type { Generation } from '@mediagen/shared';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import { TEST_REDIS_URL, deleteKeys, testPrefix } from '@mediagen/testing';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { authEmulatorHost } from '@mediagen/testing/vitest';
import { REQUESTS, call, finalState, submit } from './support/api';
import { expectBalancesAddUp, expectSettledOnce } from './support/balances';
import { createHostNetwork, namespacesUnavailable, type HostNetwork } from '@mediagen/scripts/host-network';
import { spawnServer, spawnWorker, type ChildHandle, type WorkerProcess } from './support/processes';

/**
 * The stack across machines: the API and two workers each in a network namespace of its own (its own
 * address, its own data directory), the data services (PostgreSQL, Redis, the bucket, the provider
 * simulator, the Auth emulator) on this machine across a bridge. Nothing is shared but those services.
 */
const API_PORT = 3000;

describe('several hosts', () => {
  let network: HostNetwork;
  let s3: TestS3Server;
  let simulator: Simulator;
  let database: TestDatabase;
  let record: RecordDatabase;
  let api: ChildHandle;
  let origin: string;
  const prefix = testPrefix('hosts');
  const workers: Record<string, WorkerProcess> = {};
  const dataDirs: string[] = [];
  const users: TestUser[] = [];
  let hostEnv: Record<string, string>;

  const newUser = async () => {
    const user = await createTestUser();
    users.push(user);
    return user;
  };

  async function startWorker(name: 'worker-1' | 'worker-2'): Promise<void> {
    const dataDir = await mkdtemp(join(tmpdir(), `mediagen-${name}-`));
    dataDirs.push(dataDir);
    const worker = spawnWorker(
      {
        ...hostEnv,
        DATA_DIR: dataDir,
        CONCURRENCY_IMAGE: '2',
        CONCURRENCY_SPEECH: '2',
        VIDEO_POLL_INTERVAL_MS: '200',
        // A job whose host died is taken up by the other host once its lock lapses.
        WORKER_LOCK_MS: '3000',
      },
      network.hosts[name]!.wrap,
    );
    workers[name] = worker;
    await worker.ready;
  }

  beforeAll(async () => {
    // Part of every run: a machine that cannot make network namespaces fails here, it is not left out.
    const unavailable = await namespacesUnavailable();
    if (unavailable !== null) {
      throw new Error(`several hosts need network namespaces: ${unavailable} (run as root, with iproute2)`);
    }
    network = await createHostNetwork(['api', 'worker-1', 'worker-2']);
    const { gateway } = network;
    s3 = await startTestS3Server();
    // Calls slow enough that every job of a batch is running at once when a host dies.
    simulator = createSimulator({ latencyMs: 1500, videoQueueingMs: 400, videoProcessingMs: 1600 });
    await simulator.listen();
    database = await createTestDatabase('hosts');
    record = openDatabase(database.url, { maxConnections: 2 });

    // The hosts reach this machine's loopback-only services through the bridge.
    const across = async (url: string) => {
      const parsed = new URL(url);
      parsed.port = String(await network.forward(Number(parsed.port || 80)));
      parsed.hostname = gateway;
      return parsed.toString().replace(/\/$/, '');
    };
    const emulatorPort = Number(authEmulatorHost().split(':')[1]);
    hostEnv = {
      DATABASE_URL: await across(database.url),
      REDIS_URL: await across(TEST_REDIS_URL),
      QUEUE_PREFIX: prefix,
      SIMULATOR_URL: await across(simulator.url),
      // Its Realtime API's TLS port, through a forward of its own.
      SIMULATOR_TLS_URL: await across(simulator.secureUrl),
      ...s3.env,
      S3_ENDPOINT: await across(s3.env.S3_ENDPOINT!),
    };

    const apiHost = network.hosts.api!;
    origin = `http://${apiHost.address}:${API_PORT}`;
    const apiDataDir = await mkdtemp(join(tmpdir(), 'mediagen-api-'));
    dataDirs.push(apiDataDir);
    api = await spawnServer(
      {
        ...hostEnv,
        DATA_DIR: apiDataDir,
        HOST: apiHost.address,
        PORT: String(API_PORT),
        PUBLIC_URL: origin,
        FIREBASE_AUTH_EMULATOR_HOST: `${gateway}:${await network.forward(emulatorPort)}`,
        RATE_LIMIT_PER_MINUTE: '100000',
        MAX_IN_FLIGHT_PER_USER: '10',
        LOG_LEVEL: 'warn',
      },
      origin,
      apiHost.wrap,
    );
    await startWorker('worker-1');
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([api?.stop(), ...Object.values(workers).map((worker) => worker.stop())]);
    await network?.remove();
    await record?.close();
    await database?.drop();
    const redis = new Redis(TEST_REDIS_URL);
    await deleteKeys(redis, `${prefix}:*`);
    await redis.quit();
    await s3?.close();
    await simulator?.close();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }, 60_000);

  const served = async (generation: Generation) => {
    const download = await fetch(generation.result!.url);
    expect(download.status, generation.id).toBe(200);
    expect((await download.arrayBuffer()).byteLength, generation.id).toBeGreaterThan(0);
  };

  it('every kind is made on a worker host and served by the API host from the bucket, with no shared directory', async () => {
    const user = await newUser();
    const accepted = await Promise.all(
      [REQUESTS.image, REQUESTS.video, REQUESTS.speech].map(async (request) => {
        const answer = await submit(origin, user, request);
        expect(answer.status, answer.text).toBe(202);
        return answer.body.id;
      }),
    );
    const ended = await Promise.all(accepted.map((id) => finalState(origin, user, id, 60_000)));
    expect(ended.map(({ status }) => status)).toEqual(['completed', 'completed', 'completed']);
    for (const generation of ended) await served(generation);
    const keys = await s3.keys();
    for (const id of accepted) expect(keys.some((key) => key.includes(id))).toBe(true);
    // The hosts' own directories hold no artifact: the bucket is all they share.
    for (const dir of dataDirs) {
      const files = await readdir(join(dir, 'artifacts')).catch(() => []);
      expect(files, dir).toEqual([]);
    }
  }, 90_000);

  it('a cancel sent to the API host stops a video rendering on a worker host', async () => {
    const user = await newUser();
    const tasksBefore = simulator.stats().videoTasksCreated;
    const answer = await submit(origin, user, REQUESTS.video);
    expect(answer.status, answer.text).toBe(202);
    const id = answer.body.id;
    // The worker host has started the provider's render.
    await vi.waitUntil(() => simulator.stats().videoTasksCreated === tasksBefore + 1, {
      timeout: 30_000,
      interval: 50,
    });
    const canceled = await call<Generation>(origin, user, 'POST', `/api/generations/${id}/cancel`);
    expect(canceled.status, canceled.text).toBe(200);

    const ended = await finalState(origin, user, id, 30_000);
    expect(ended.status).toBe('canceled');
    expect(ended.result).toBeUndefined();
    // The worker let go: past the render's end, nothing was stored and no other task was started.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await s3.keys()).filter((key) => key.includes(id))).toEqual([]);
    expect(simulator.stats().videoTasksCreated).toBe(tasksBefore + 1);
    expect((await call<Generation>(origin, user, 'GET', `/api/generations/${id}`)).body.status).toBe('canceled');
  }, 60_000);

  it('a worker host dying mid-job: the other host takes its jobs, each ends once and is served', async () => {
    await startWorker('worker-2');
    const submitted = await Promise.all(
      [0, 1].map(async () => {
        const user = await newUser();
        return Promise.all(
          [REQUESTS.image, REQUESTS.speech, REQUESTS.speech].map(async (request) => {
            const answer = await submit(origin, user, request);
            expect(answer.status, answer.text).toBe(202);
            return { user, id: answer.body.id, kind: request.kind };
          }),
        );
      }),
    );
    const jobs = submitted.flat();
    // Two images and four speeches all running at once: a host takes at most two of each kind, so
    // worker-1 holds at least two of them when it dies.
    await vi.waitUntil(
      async () => {
        const states = await Promise.all(
          jobs.map(
            async ({ user, id }) => (await call<Generation>(origin, user, 'GET', `/api/generations/${id}`)).body,
          ),
        );
        return states.every(({ status }) => status === 'active');
      },
      { timeout: 30_000, interval: 50 },
    );
    await network.hosts['worker-1']!.killAll();

    const ended = await Promise.all(jobs.map(({ user, id }) => finalState(origin, user, id, 90_000)));
    expect(ended.map((generation) => `${generation.id}:${generation.status}`)).toEqual(
      jobs.map(({ id }) => `${id}:completed`),
    );
    for (const generation of ended) await served(generation);
    expect(workers['worker-2']!.alive()).toBe(true);
    // The dead host's jobs were started again on the other one.
    const connection = new Redis(TEST_REDIS_URL);
    const starts = await Promise.all(
      jobs.map(async ({ id, kind }) => {
        const queue = new Queue(queueName(kind), { connection, prefix });
        const job = await queue.getJob(id);
        await queue.close();
        return job?.attemptsStarted ?? 0;
      }),
    );
    connection.disconnect();
    expect(starts.filter((count) => count > 1).length, JSON.stringify(starts)).toBeGreaterThanOrEqual(2);

    const all = [...users];
    await expectSettledOnce(
      record.db,
      jobs.map(({ id }) => id),
    );
    await expectBalancesAddUp(
      record.db,
      all.map((user) => user.uid),
    );
  }, 150_000);
});
