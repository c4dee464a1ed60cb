import { REDIS_URL, freePort, percentile, sleep, spawnTs, type Child } from '../lib/env';
import { Queue } from 'bullmq';
import type { Figure } from '../lib/report';
import { closeAll, connectMany, type Update } from '../lib/sockets';
import { openStreams } from '../lib/streams';
import { BenchStack } from '../lib/stack';
import type { BenchContext } from '../run';
import { connectRedis } from '@mediagen/core';

const CLIENTS = Number(process.env.BENCH_PROGRESS_CLIENTS ?? 500);
/** Of those, the ones that also follow their generation over its event stream (SSE), for programs. */
const STREAM_CLIENTS = Math.min(CLIENTS, Number(process.env.BENCH_PROGRESS_STREAMS ?? 50));
const STEPS = 30;
const INTERVAL_MS = 100;
/**
 * Jobs wait this long after they start before their first step: the CPU window opens after submissions
 * and starts are over, so it holds the progress events alone.
 */
const SETTLE_MS = 3000;
const CPU_WINDOW_OPENS_MS = 1500;

interface Measure {
  latencies: number[];
  delivered: number;
  expected: number;
  jobsMissingLast: number;
}

async function sentTimes(worker: Child): Promise<Record<string, number[]>> {
  worker.child.kill('SIGUSR2');
  const json = await worker.waitFor(/SENT (\{[\s\S]*\}) END/, 20_000);
  return JSON.parse(json) as Record<string, number[]>;
}

function measure(updates: Update[], sent: Record<string, number[]>): Measure {
  const latencies: number[] = [];
  const seen = new Map<string, Set<number>>();
  const ended = new Set<string>();
  for (const update of updates) {
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
  };
}

/**
 * CLIENTS sockets, each owning a running generation that reports progress 10×/s, through the server (a
 * bench processor starts each through the lifecycle and publishes on the progress channel, as the real
 * worker does; the server relays to the owner's room) and through a bare QueueEvents → Socket.IO relay
 * of job.updateProgress.
 */
export async function progressBench(context: BenchContext): Promise<Figure[]> {
  const users = context.users.slice(0, CLIENTS);
  const stack = new BenchStack();
  try {
    // The API path: jobs submitted through the API, run by the bench processor instead of the real worker.
    const { origin, child: server } = await stack.server(context.emulatorHost);
    const apiUpdates: Update[] = [];
    const apiSockets = await connectMany(
      origin,
      users.map((user) => ({ token: user.idToken })),
      (update) => apiUpdates.push(update),
    );
    const apiWorker = stack.track(
      spawnTs('bench/targets/bench-worker.ts', {
        DATABASE_URL: await stack.databaseUrl(),
        REDIS_URL,
        QUEUE_PREFIX: stack.prefix,
        QUEUE_NAME: 'generation-speech',
        MODE: 'record-progress',
        STEPS: String(STEPS),
        INTERVAL_MS: String(INTERVAL_MS),
        SETTLE_MS: String(SETTLE_MS),
        CONCURRENCY: String(CLIENTS),
      }),
    );
    await apiWorker.waitFor(/bench worker ready/);
    const submitted = await Promise.all(
      users.map((user) =>
        fetch(`${origin}/api/generations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}` },
          body: JSON.stringify({ kind: 'speech', input: 'progress', voice: 'nova', language: 'en-US' }),
        }).then(async (response) => ({ token: user.idToken, id: ((await response.json()) as { id: string }).id })),
      ),
    );
    // The same events, to the same owners, over their streams too: opened before the first step.
    const streamUpdates: Update[] = [];
    const streams = await openStreams(origin, submitted.slice(0, STREAM_CLIENTS), (update) =>
      streamUpdates.push(update),
    );
    await sleep(CPU_WINDOW_OPENS_MS);
    const serverCpuBefore = server.cpuSeconds();
    await sleep(SETTLE_MS + STEPS * INTERVAL_MS + 3000 - CPU_WINDOW_OPENS_MS);
    const serverCpu = server.cpuSeconds() - serverCpuBefore;
    const sent = await sentTimes(apiWorker);
    const api = measure(apiUpdates, sent);
    const streamIds = new Set(submitted.slice(0, STREAM_CLIENTS).map((entry) => entry.id));
    const streamed = measure(
      streamUpdates,
      Object.fromEntries(Object.entries(sent).filter(([id]) => streamIds.has(id))),
    );
    // The sockets' latencies for the same generations, so both figures count the same events.
    const socketsOfStreamed = measure(
      apiUpdates.filter((update) => streamIds.has(update.id)),
      Object.fromEntries(Object.entries(sent).filter(([id]) => streamIds.has(id))),
    );
    streams.abort();
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
        SETTLE_MS: String(SETTLE_MS),
        CONCURRENCY: String(CLIENTS),
      }),
    );
    await bareWorker.waitFor(/bench worker ready/);
    const producer = await connectRedis(REDIS_URL, 'producer');
    const queue = new Queue(queueName, { connection: producer, prefix: stack.prefix });
    await queue.addBulk(
      uids.map((uid, index) => ({ name: 'p', data: {}, opts: { jobId: `p.${uid}.${index}`, removeOnComplete: true } })),
    );
    await sleep(CPU_WINDOW_OPENS_MS);
    const relayCpuBefore = relay.cpuSeconds();
    await sleep(SETTLE_MS + STEPS * INTERVAL_MS + 3000 - CPU_WINDOW_OPENS_MS);
    const relayCpu = relay.cpuSeconds() - relayCpuBefore;
    const bare = measure(bareUpdates, await sentTimes(bareWorker));
    closeAll(bareSockets);
    await queue.close();
    await producer.quit();

    const p50 = percentile(api.latencies, 50);
    const bareP50 = percentile(bare.latencies, 50);
    const p99 = percentile(api.latencies, 99);
    const bareP99 = percentile(bare.latencies, 99);
    const lossNote = (m: Measure) =>
      `${m.delivered}/${m.expected} distinct progress values seen, ${m.jobsMissingLast} jobs never reached their last step or 'completed'`;
    // CPU per delivered event, in microseconds: the server's whole process (submissions included) against
    // the bare relay's.
    const cpuPerEvent = (serverCpu * 1e6) / Math.max(1, api.delivered);
    const bareCpuPerEvent = (relayCpu * 1e6) / Math.max(1, bare.delivered);
    return [
      {
        part: 'progress',
        name: `server CPU per delivered progress event (${CLIENTS} clients × 10/s)`,
        value: cpuPerEvent,
        unit: 'µs',
        ceiling: bareCpuPerEvent,
        ratio: cpuPerEvent / bareCpuPerEvent,
        target: '≤ 1.2× bare relay',
        met: cpuPerEvent <= 1.2 * bareCpuPerEvent,
        note: `server ${serverCpu.toFixed(2)} s CPU for ${api.delivered} events, bare relay ${relayCpu.toFixed(2)} s for ${bare.delivered}`,
      },
      {
        part: 'progress',
        name: 'publish → client p50',
        value: p50,
        unit: 'ms',
        ceiling: bareP50,
        ratio: p50 / bareP50,
        target: '≤ 1.2× bare relay, none lost',
        met: p50 <= 1.2 * bareP50 && api.jobsMissingLast === 0 && api.delivered === api.expected,
        note: `API: ${lossNote(api)}; bare: ${lossNote(bare)}`,
      },
      {
        part: 'progress',
        name: `publish → event-stream (SSE) client p50, ${STREAM_CLIENTS} of the clients`,
        value: percentile(streamed.latencies, 50),
        unit: 'ms',
        ceiling: percentile(socketsOfStreamed.latencies, 50),
        ratio: percentile(streamed.latencies, 50) / percentile(socketsOfStreamed.latencies, 50),
        target: "≤ 1.2× the same events' socket p50, none lost",
        met:
          percentile(streamed.latencies, 50) <= 1.2 * percentile(socketsOfStreamed.latencies, 50) &&
          streamed.delivered === streamed.expected,
        note: `streams: ${lossNote(streamed)}; p95 ${percentile(streamed.latencies, 95).toFixed(1)} ms against the sockets' ${percentile(socketsOfStreamed.latencies, 95).toFixed(1)} ms`,
      },
      {
        part: 'progress',
        name: 'publish → client p99 (reported, not targeted)',
        value: p99,
        unit: 'ms',
        ceiling: bareP99,
        ratio: p99 / bareP99,
      },
    ];
  } finally {
    await stack.stop();
  }
}
