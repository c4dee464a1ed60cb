import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  REDIS_URL,
  createTestContext,
  createTestUser,
  type TestApp,
  type TestContext,
  type TestUser,
} from '@mediagen/server/testing';
import type { Generation, GenerationRequestInput } from '@mediagen/shared';
import { ensurePostgres } from '@mediagen/scripts/postgres';
import { freePort, type ManagedProcess } from '@mediagen/scripts/processes';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import { deleteKeys } from '@mediagen/testing';
import { REQUESTS, activeJobs, call, finalState, submit } from './support/api';
import { expectBalancesAddUp } from './support/balances';
import { outageWorkers, type WorkerProcess } from './support/processes';

/**
 * The record's outages: PostgreSQL (a cluster of the test's own) stopped and restarted under load, then
 * every Redis key of the queue prefix deleted under load. Accepted generations end, a refused request
 * charges nothing, and for every user balance + spent + in flight = allowance, kind by kind.
 */
let dataDir: string;
let databaseUrl: string;
let cluster: ManagedProcess | null = null;
let context: TestContext;
let server: TestApp;
let simulator: Simulator;
const workers: WorkerProcess[] = [];
const output: string[] = [];
const accepted: { user: TestUser; id: string }[] = [];
const users: TestUser[] = [];

async function startCluster(): Promise<void> {
  cluster = await ensurePostgres(databaseUrl, dataDir, (_name, line) => output.push(line));
  if (cluster === null) throw new Error(`something else answers on ${databaseUrl}`);
}

/** Fast shutdown (SIGINT): open sessions are cut, as when a database host goes away. */
async function stopCluster(): Promise<void> {
  const child = cluster!.child;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGINT');
  await exited;
  cluster = null;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mediagen-faults-pg-'));
  // The cluster runs as an unprivileged user when the tests run as root: it must reach its folder.
  await chmod(dataDir, 0o755);
  databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/mediagen`;
  await startCluster();
  simulator = createSimulator({ latencyMs: 800, videoQueueingMs: 300, videoProcessingMs: 600 });
  await simulator.listen();
  context = await createTestContext();
  server = await context.start({ DATABASE_URL: databaseUrl, JOB_BACKOFF_MS: '200', RATE_LIMIT_PER_MINUTE: '100000' });
  workers.push(
    ...(await outageWorkers({
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      QUEUE_PREFIX: context.prefix,
      DATA_DIR: context.dataDir,
      SIMULATOR_URL: simulator.url,
      // A generation whose job vanished is put back in its queue after 2 s of quiet, checked twice a second.
      RECONCILE_INTERVAL_MS: '500',
      RECONCILE_AFTER_MS: '2000',
    })),
  );
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  await context?.cleanup();
  await simulator?.close();
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function submitAll(user: TestUser, requests: readonly GenerationRequestInput[]): Promise<void> {
  for (const request of requests) {
    const answer = await submit(server.origin, user, request);
    expect(answer.status, answer.text).toBe(202);
    accepted.push({ user, id: answer.body.id });
  }
}

const workerOutput = () => workers.flatMap((worker) => worker.output).join('');

/** The output of every worker process that is no longer running (none should be). */
const deadWorkers = () =>
  workers.filter((worker) => !worker.alive()).map((worker) => worker.output.join('').slice(-3000));

const readyStatus = async () => (await call(server.origin, null, 'GET', '/readyz')).status;

it('PostgreSQL stopped and restarted with jobs queued and running: 503 meanwhile, then every accepted job ends', async () => {
  users.push(...(await Promise.all([1, 2, 3].map(() => createTestUser()))));
  const late = await createTestUser();
  users.push(late);
  for (const user of users.slice(0, 3)) await submitAll(user, [REQUESTS.image, REQUESTS.speech, REQUESTS.video]);
  // The outage must meet work under way: wait until the workers run some of it (they start slowly on a
  // busy machine).
  await vi.waitUntil(async () => (await activeJobs(server)) > 0, { timeout: 30_000, interval: 50 });

  await stopCluster();

  await vi.waitUntil(async () => (await readyStatus()) === 503, { timeout: 10_000, interval: 100 });
  const refused = await submit(server.origin, late, REQUESTS.speech);
  expect(refused.status, refused.text).toBe(503);
  expect(refused.body).toEqual({ error: { code: 'NOT_READY', message: expect.any(String) } });
  const read = await call(server.origin, users[0]!, 'GET', `/api/generations/${accepted[0]!.id}`);
  expect(read.status, read.text).toBe(503);
  expect((await call(server.origin, null, 'GET', '/healthz')).status).toBe(200);
  // Running jobs reach their end and fail to record it: the outcome waits with the job.
  await vi.waitUntil(() => /could not record the (completion|failure)/.test(workerOutput()), {
    timeout: 30_000,
    interval: 100,
  });
  expect(deadWorkers(), 'workers that died').toEqual([]);

  await startCluster();

  await vi.waitUntil(async () => (await readyStatus()) === 200, { timeout: 30_000, interval: 200 });
  await submitAll(late, [REQUESTS.speech]);
  const ended: Generation[] = await Promise.all(
    accepted.map(({ user, id }) => finalState(server.origin, user, id, 90_000)),
  );
  expect(ended.map((generation) => `${generation.id}:${generation.status}`)).toEqual(
    accepted.map(({ id }) => `${id}:completed`),
  );
  expect(deadWorkers(), 'workers that died').toEqual([]);
  await expectBalancesAddUp(
    server.app.database.db,
    users.map((user) => user.uid),
  );
}, 180_000);

it('every Redis key of the queue prefix deleted under load: the reconciler brings each charged generation to an end', async () => {
  // One made before the keys go, to show it is still listed and served after.
  const owner = await createTestUser();
  users.push(owner);
  await submitAll(owner, [REQUESTS.image]);
  const completedBefore = accepted.at(-1)!;
  expect((await finalState(server.origin, owner, completedBefore.id, 30_000)).status).toBe('completed');
  const fresh = await Promise.all([1, 2, 3].map(() => createTestUser()));
  users.push(...fresh);
  const from = accepted.length;
  for (const user of fresh) await submitAll(user, [REQUESTS.image, REQUESTS.speech, REQUESTS.video]);
  // Under way (or, on a slow host, already done: the speech and video behind it are still in flight).
  await vi.waitUntil(
    async () => ['active', 'completed'].includes(await server.app.jobs.queue('image').getJobState(accepted[from]!.id)),
    { timeout: 30_000, interval: 50 },
  );

  await deleteKeys(context.redis, `${context.prefix}:*`);

  const ended = await Promise.all(
    accepted.slice(from).map(({ user, id }) => finalState(server.origin, user, id, 90_000)),
  );
  for (const generation of ended) expect(['completed', 'failed']).toContain(generation.status);
  // Their jobs were gone: it was the reconciler that put them back.
  expect(workerOutput()).toMatch(/reconciler: [1-9]\d* requeued/);
  expect(deadWorkers(), 'workers that died').toEqual([]);
  await expectBalancesAddUp(
    server.app.database.db,
    users.map((user) => user.uid),
  );

  // What was made before the keys went is still listed, and its file still downloads.
  const listed = await call<{ items: Generation[] }>(server.origin, completedBefore.user, 'GET', '/api/generations');
  const item = listed.body.items.find((generation) => generation.id === completedBefore.id);
  expect(item?.status).toBe('completed');
  const download = await fetch(item!.result!.url);
  expect(download.status).toBe(200);
  expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
}, 180_000);
