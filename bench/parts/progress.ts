import { REDIS_URL, freePort, percentile, sleep, spawnTs, type Child } from '../lib/env';
import { Queue } from 'bullmq';
import type { Figure } from '../lib/report';
import { closeAll, connectMany, type Update } from '../lib/sockets';
import { BenchStack } from '../lib/stack';
import type { BenchContext } from '../run';
import { connectRedis } from '@mediagen/core';

const CLIENTS = Number(process.env.BENCH_PROGRESS_CLIENTS ?? 500);
const STEPS = 30;
const INTERVAL_MS = 100;

interface Measure {
  latencies: number[];
  delivered: number;
  expected: number;
  jobsMissingLast: number;
  eventsPerSecond: number;
}

async function sentTimes(worker: Child): Promise<Record<string, number[]>> {
  worker.child.kill('SIGUSR2');
  const json = await worker.waitFor(/SENT (\{[\s\S]*\}) END/, 20_000);
  return JSON.parse(json) as Record<string, number[]>;
}

function measure(updates: Update[], sent: Record<string, number[]>, windowMs: number): Measure {
  const latencies: number[] = [];
  const seen = new Map<string, Set<number>>();
  const ended = new Set<string>();
  for (const update of updates) {
    // The server re-reads the job for each event: a last step read after the job ended arrives as the
    // 'completed' update, which carries it.
    if (update.status === 'completed') ended.add(update.id);
    const times = sent[update.id];
    if (times === undefined || update.progress < 1 || update.progress > STEPS) continue;
    const set = seen.get(update.id) ?? new Set<number>();
    if (set.has(update.progress)) continue; // a repeat carries no new progress
    set.add(update.progress);
    seen.set(update.id, set);
    latencies.push(update.at - times[update.progress - 1]!);
  }
  const jobs = Object.keys(sent);
  const delivered = [...seen.values()].reduce((sum, set) => sum + set.size, 0);
  const jobsMissingLast = jobs.filter((id) => !seen.get(id)?.has(STEPS) && !ended.has(id)).length;
  return {
    latencies,
    delivered,
    expected: jobs.length * STEPS,
    jobsMissingLast,
    eventsPerSecond: delivered / (windowMs / 1000),
  };
}

/**
 * CLIENTS sockets, each owning a running job that reports progress 10×/s (a bench processor drives
 * job.updateProgress), through the server's relay (QueueEvents → re-read job → owner's room) and
 * through a bare QueueEvents → Socket.IO relay.
 */
export async function progressBench(context: BenchContext): Promise<Figure[]> {
  const users = context.users.slice(0, CLIENTS);
  const stack = new BenchStack();
  try {
    // The API path: jobs submitted through the API, run by the bench processor instead of the real worker.
    const { origin } = await stack.server(context.emulatorHost);
    const apiUpdates: Update[] = [];
    const apiSockets = await connectMany(
      origin,
      users.map((user) => ({ token: user.idToken })),
      (update) => apiUpdates.push(update),
    );
    const apiWorker = stack.track(
      spawnTs('bench/targets/bench-worker.ts', {
        REDIS_URL,
        QUEUE_PREFIX: stack.prefix,
        QUEUE_NAME: 'generation-speech',
        MODE: 'progress',
        STEPS: String(STEPS),
        INTERVAL_MS: String(INTERVAL_MS),
        CONCURRENCY: String(CLIENTS),
      }),
    );
    await apiWorker.waitFor(/bench worker ready/);
    const started = Date.now();
    await Promise.all(
      users.map((user) =>
        fetch(`${origin}/api/generations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}` },
          body: JSON.stringify({ kind: 'speech', input: 'progress', voice: 'nova', language: 'en-US' }),
        }).then((response) => response.arrayBuffer()),
      ),
    );
    await sleep(STEPS * INTERVAL_MS + 3000);
    const api = measure(apiUpdates, await sentTimes(apiWorker), Date.now() - started - 2000);
    closeAll(apiSockets);
    await apiWorker.stop();

    // The bare relay.
    const port = await freePort();
    const queueName = 'bare-progress';
    const relay = stack.track(
      spawnTs('bench/targets/bare-relay.ts', {
        REDIS_URL,
        QUEUE_PREFIX: stack.prefix,
        QUEUE_NAME: queueName,
        PORT: String(port),
      }),
    );
    await relay.waitFor(/listening/);
    const bareUpdates: Update[] = [];
    const uids = users.map((_, index) => `u${index}`);
    const bareSockets = await connectMany(
      `http://127.0.0.1:${port}`,
      uids.map((uid) => ({ uid })),
      (update) => bareUpdates.push(update),
    );
    const bareWorker = stack.track(
      spawnTs('bench/targets/bench-worker.ts', {
        REDIS_URL,
        QUEUE_PREFIX: stack.prefix,
        QUEUE_NAME: queueName,
        MODE: 'progress',
        STEPS: String(STEPS),
        INTERVAL_MS: String(INTERVAL_MS),
        CONCURRENCY: String(CLIENTS),
      }),
    );
    await bareWorker.waitFor(/bench worker ready/);
    const producer = await connectRedis(REDIS_URL, 'producer');
    const queue = new Queue(queueName, { connection: producer, prefix: stack.prefix });
    const bareStarted = Date.now();
    await queue.addBulk(
      uids.map((uid, index) => ({ name: 'p', data: {}, opts: { jobId: `p.${uid}.${index}`, removeOnComplete: true } })),
    );
    await sleep(STEPS * INTERVAL_MS + 3000);
    const bare = measure(bareUpdates, await sentTimes(bareWorker), Date.now() - bareStarted - 2000);
    closeAll(bareSockets);
    await queue.close();
    await producer.quit();

    const p99 = percentile(api.latencies, 99);
    const bareP99 = percentile(bare.latencies, 99);
    const lossNote = (m: Measure) =>
      `${m.delivered}/${m.expected} distinct progress values seen, ${m.jobsMissingLast} jobs never reached their last step or 'completed'`;
    return [
      {
        part: 'progress',
        name: `updateProgress → client p99 (${CLIENTS} clients × 10/s)`,
        value: p99,
        unit: 'ms',
        ceiling: bareP99,
        ratio: p99 / bareP99,
        target: '≤ 1.2× bare relay, none lost',
        met: p99 <= 1.2 * bareP99 && api.jobsMissingLast === 0,
        note: `p50 ${percentile(api.latencies, 50).toFixed(1)} vs ${percentile(bare.latencies, 50).toFixed(1)} ms; API: ${lossNote(api)}; bare: ${lossNote(bare)}`,
      },
      {
        part: 'progress',
        name: 'distinct progress events delivered per second',
        value: api.eventsPerSecond,
        unit: 'ev/s',
        ceiling: bare.eventsPerSecond,
        ratio: api.eventsPerSecond / bare.eventsPerSecond,
      },
    ];
  } finally {
    await stack.stop();
  }
}
