import { spawnSync } from 'node:child_process';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedis, queueName, type RedisEndpoint } from '@mediagen/core';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import type { Generation, GenerationRequestInput } from '@mediagen/shared';
import {
  connectUserSocket,
  createTestContext,
  createTestUser,
  type TestApp,
  type TestContext,
  type TestUser,
} from '@mediagen/server/testing';
import { REQUESTS, call, finalState, submit } from './support/api';
import { expectBalancesAddUp, expectSettledOnce } from './support/balances';
import { outageWorkers, sleep, type WorkerProcess } from './support/processes';
import { startSentinelGroup, type SentinelGroup } from './support/redis-sentinels';

/**
 * Redis fails over under load. A primary, a replica and three sentinels of the test's own (redis-server
 * from PATH) serve the stack, which connects through the sentinels. Mid-load the replica stops receiving
 * the primary's writes (a replica lagging behind), then the primary is killed with SIGKILL: Sentinel
 * promotes the replica, and whatever the primary accepted in between (new jobs, jobs taken, jobs
 * finished) is gone. The stack must find the new primary by itself, and the record with the reconciler
 * must bring every accepted generation to one end, its token counted once.
 */

const USERS = 8;
// Each user's whole allowance (image 1, video 1, speech 2), the kinds rotated so every moment mixes them.
const ALLOWANCE_REQUESTS = [REQUESTS.image, REQUESTS.speech, REQUESTS.video, REQUESTS.speech];
// A few submissions a second, whatever the answers take.
const SUBMIT_EVERY_MS = 150;
// Jobs the lost writes will have carried off, at the least.
const LOST_SUBMISSIONS = 3;
const RECONNECT_BOUND_MS = 30_000;
// Submissions held back until the replica is promoted, however slow the machine.
const SENT_AFTER_FAILOVER = 6;
// A hang guard: every video is downloaded and marked (ffmpeg) at the end, and on a loaded 2-core host the
// last of them took over 60 s to end.
const ENDED_WITHIN_MS = 120_000;

interface Accepted {
  user: TestUser;
  id: string;
  sentAt: number;
}

/**
 * Submits every slot in turn; a slot refused with 503 (no primary) goes to the back and is tried again.
 * The last `keptBack` slots wait for `resume()`, so some are sent after the failover however long it took.
 */
function steadyLoad(slots: { user: TestUser; request: GenerationRequestInput }[], origin: string, keptBack: number) {
  const accepted: Accepted[] = [];
  const refusedAt: number[] = [];
  const unexpected: string[] = [];
  let resume = () => {};
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  const done = (async () => {
    for (let slot = slots.shift(); slot !== undefined; slot = slots.shift()) {
      if (slots.length < keptBack) await resumed;
      const sentAt = Date.now();
      const answer = await submit(origin, slot.user, slot.request).catch((error: unknown) => ({
        status: 0,
        text: String(error),
        body: undefined,
      }));
      if (answer.status === 202 && answer.body !== undefined)
        accepted.push({ user: slot.user, id: answer.body.id, sentAt });
      else if (answer.status === 503) {
        refusedAt.push(sentAt);
        slots.push(slot);
      } else unexpected.push(`${answer.status} ${answer.text}`);
      await sleep(Math.max(0, sentAt + SUBMIT_EVERY_MS - Date.now()));
    }
  })();
  return { accepted, refusedAt, unexpected, done, resume };
}

/** Submits a speech request with the user's socket open; resolves once an update carries a worker's progress. */
async function submitSeeingProgress(origin: string, user: TestUser): Promise<string> {
  const { socket, updates } = await connectUserSocket(origin, user.idToken);
  try {
    const answer = await submit(origin, user, REQUESTS.speech);
    expect(answer.status, answer.text).toBe(202);
    await vi
      .waitUntil(
        () =>
          updates.some((update) => update.id === answer.body.id && update.status === 'active' && update.progress > 0),
        { timeout: 30_000, interval: 50 },
      )
      .catch(() => {
        const seen = updates.map(
          ({ id, status, progress }) => `${id === answer.body.id ? 'this' : id} ${status} ${progress}`,
        );
        throw new Error(`no progress reached the socket; it heard: ${JSON.stringify(seen)}`);
      });
    return answer.body.id;
  } finally {
    socket.close();
  }
}

/** The generations still `queued` in the record whose job the primary Sentinel names now does not have. */
async function jobsMissingOnThePrimary(
  db: TestApp['app']['database']['db'],
  endpoint: RedisEndpoint,
  prefix: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const queued = await db
    .selectFrom('generations')
    .select(['id', 'kind'])
    .where('id', 'in', [...ids])
    .where('status', '=', 'queued')
    .execute();
  const connection = await connectRedis(endpoint, 'blocking');
  try {
    const missing: string[] = [];
    for (const { id, kind } of queued) {
      if ((await connection.exists(`${prefix}:${queueName(kind)}:${id}`)) === 0) missing.push(id);
    }
    return missing;
  } finally {
    connection.disconnect();
  }
}

describe('Redis failover', () => {
  let group: SentinelGroup;
  let context: TestContext;
  let server: TestApp;
  let simulator: Simulator;
  let eventsConnection: Redis | undefined;
  let events: QueueEvents | undefined;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // Part of every run: a machine without redis-server fails here, it is not left out.
    if (spawnSync('redis-server', ['--version']).status !== 0) {
      throw new Error('the failover test needs redis-server on PATH (Debian: apt-get install redis-server)');
    }
    group = await startSentinelGroup();
    simulator = createSimulator({ latencyMs: 800, videoQueueingMs: 300, videoProcessingMs: 600 });
    await simulator.listen();
    context = await createTestContext();
    // The harness's REDIS_URL (the machine's Redis) stays set: behind Sentinel only its credentials count.
    server = await context.start({
      ...group.env,
      JOB_BACKOFF_MS: '200',
      RATE_LIMIT_PER_MINUTE: '100000',
      MAX_IN_FLIGHT_PER_USER: '10',
    });
    workers.push(
      ...(await outageWorkers({
        ...group.env,
        DATABASE_URL: context.database.url,
        QUEUE_PREFIX: context.prefix,
        DATA_DIR: context.dataDir,
        SIMULATOR_URL: simulator.url,
        // A generation whose job the failover lost is put back after 2 s of quiet, checked twice a second.
        RECONCILE_INTERVAL_MS: '500',
        RECONCILE_AFTER_MS: '2000',
        // A job whose completion was lost sits `active` on the new primary until its lock lapses.
        WORKER_LOCK_MS: '3000',
        // A job whose take the failover lost runs again on another worker while its first run goes on, and
        // on a loaded host a lock that lapses can bring it back once more: each run's call counts as paid.
        // The cap that ends a generation after two such calls is the spend tests' to prove; here every
        // accepted generation must complete, its token counted once.
        MAX_PAID_CALLS: '4',
      })),
    );
  }, 120_000);

  afterAll(async () => {
    await events?.close().catch(() => undefined);
    eventsConnection?.disconnect();
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    await context?.cleanup();
    await simulator?.close();
    await group?.remove();
  });

  const readyStatus = async () =>
    (await call(server.origin, null, 'GET', '/readyz').catch(() => ({ status: 0 }))).status;
  const workerOutput = () => workers.flatMap((worker) => worker.output).join('');
  const workerLinesAbout = (id: string) =>
    workerOutput()
      .split('\n')
      .filter((line) => line.includes(id))
      .join('\n');

  it('the primary killed mid-load: the stack follows the new primary, and every accepted generation ends once', async () => {
    const { db } = server.app.database;
    // A duplicate of this connection reads the events, as BullMQ duplicates for every blocking reader.
    eventsConnection = await connectRedis(group.endpoint, 'blocking');
    events = new QueueEvents(queueName('speech'), { connection: eventsConnection, prefix: context.prefix });
    const completedEventsAt: number[] = [];
    events.on('completed', () => completedEventsAt.push(Date.now()));
    await events.waitUntilReady();

    const users = await Promise.all(Array.from({ length: USERS }, () => createTestUser()));
    const slots = ALLOWANCE_REQUESTS.flatMap((_, round) =>
      users.map((user, index) => ({ user, request: ALLOWANCE_REQUESTS[(round + index) % ALLOWANCE_REQUESTS.length]! })),
    );
    const load = steadyLoad(slots, server.origin, SENT_AFTER_FAILOVER);

    // Jobs waiting and jobs running when the replica falls behind.
    await vi.waitUntil(
      async () =>
        load.accepted.length >= 8 &&
        (await db.selectFrom('generations').select('id').where('status', '=', 'active').execute()).length > 0,
      { timeout: 30_000, interval: 50 },
    );
    await group.holdReplication();
    const heldAt = load.accepted.length;
    await vi.waitUntil(() => load.accepted.length >= heldAt + LOST_SUBMISSIONS, { timeout: 30_000, interval: 20 });

    const killedAt = Date.now();
    await group.primary.crash();
    await group.releaseReplication();
    await vi.waitUntil(async () => (await group.primaryPort().catch(() => 0)) === group.replica.port, {
      timeout: RECONNECT_BOUND_MS,
      interval: 100,
    });
    const promotedAt = Date.now();
    load.resume();
    // Jobs whose add the failover lost before any worker took them: only the reconciler can bring them
    // back. (A job a worker had taken ends through the record whatever Redis forgot.)
    const lostBeforeTaken = await jobsMissingOnThePrimary(
      db,
      group.endpoint,
      context.prefix,
      load.accepted.map(({ id }) => id),
    );
    // Submissions succeed again without any process being restarted.
    await vi.waitUntil(() => load.accepted.some(({ sentAt }) => sentAt >= promotedAt), {
      timeout: RECONNECT_BOUND_MS,
      interval: 50,
    });
    const acceptedAgainAt = Date.now();
    await vi.waitUntil(async () => (await readyStatus()) === 200, { timeout: RECONNECT_BOUND_MS, interval: 100 });
    await load.done;
    expect(load.unexpected).toEqual([]);

    const endedUnderLoad = await Promise.all(
      load.accepted.map(({ user, id }) =>
        finalState(server.origin, user, id, ENDED_WITHIN_MS).catch((error: Error) => {
          throw new Error(`${error.message}; the workers said of it:\n${workerLinesAbout(id)}`);
        }),
      ),
    );
    // Progress published after the failover reaches a socket: the server's subscriber resubscribed. Sent
    // once the backlog is done, so the job runs at once.
    const late = await createTestUser();
    const lateId = await submitSeeingProgress(server.origin, late);
    const accepted = [...load.accepted, { user: late, id: lateId, sentAt: 0 }];
    const ended: Generation[] = [...endedUnderLoad, await finalState(server.origin, late, lateId, ENDED_WITHIN_MS)];
    // A failure shows its code and what the workers said of it, so a red run says why.
    const notCompleted = ended.filter((generation) => generation.status !== 'completed');
    expect(
      ended.map(
        (generation) => `${generation.id}:${generation.status}${generation.error ? ` ${generation.error.code}` : ''}`,
      ),
      notCompleted.map((generation) => `${generation.id}:\n${workerLinesAbout(generation.id)}`).join('\n'),
    ).toEqual(accepted.map(({ id }) => `${id}:completed`));
    // Give a late second run time to show up before counting.
    await vi.waitUntil(
      async () =>
        (await db.selectFrom('generations').select('id').where('status', 'in', ['queued', 'active']).execute())
          .length === 0,
      { timeout: 30_000, interval: 200 },
    );
    await expectSettledOnce(
      db,
      accepted.map(({ id }) => id),
    );
    await expectBalancesAddUp(
      db,
      [...users, late].map((user) => user.uid),
    );
    for (const generation of ended) {
      const download = await fetch(generation.result!.url);
      expect(download.status, generation.id).toBe(200);
      expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }

    // The queued jobs the failover lost were made good by the reconciler, not by luck.
    if (lostBeforeTaken.length > 0) expect(workerOutput()).toMatch(/reconciler: [1-9]\d* requeued/);
    // BullMQ's duplicated blocking reader followed the failover too.
    expect(completedEventsAt.some((at) => at > promotedAt)).toBe(true);
    expect(
      workers.every((worker) => worker.alive()),
      workerOutput().slice(-3000),
    ).toBe(true);
    expect(workerOutput()).not.toMatch(/uncaught|unhandled/i);
    // Behind Sentinel, the harness's REDIS_URL (the machine's Redis) lent nothing but its credentials.
    expect(await context.redis.keys(`${context.prefix}:*`)).toEqual([]);
    if (process.env.FAULTS_DEBUG) {
      console.log(
        `failover: promoted ${promotedAt - killedAt} ms after the kill, submissions accepted again after ` +
          `${acceptedAgainAt - killedAt} ms; ${load.refusedAt.length} submissions refused (503) meanwhile; ` +
          `${lostBeforeTaken.length} queued jobs lost; ` +
          `${accepted.length} accepted in all\n` +
          workerOutput()
            .split('\n')
            .filter((line) => /reconciler|stalled|lock/i.test(line))
            .join('\n'),
      );
    }
  }, 240_000);
});
