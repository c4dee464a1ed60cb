import { REDIS_URL, median, now, percentile, sleep, spawnTs } from '../lib/env';
import { Queue, QueueEvents } from 'bullmq';
import type { Figure } from '../lib/report';
import { closeAll, connectMany } from '../lib/sockets';
import { BenchStack } from '../lib/stack';
import { seedLargeBalances } from '../lib/users';
import type { BenchContext } from '../run';
import pg from 'pg';
import { connectRedis } from '@mediagen/core';

/** The steady rate, then one this machine sustains with cores to spare (what overhead alone costs). */
const RATES = (process.env.BENCH_E2E_RATES ?? '200,20').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 10);
/**
 * Submitters, each with one socket and a large balance, taking turns. Few enough that the bench's own
 * socket clients (one process) do not become what is measured; the raw side has a single listener.
 */
const USERS = Number(process.env.BENCH_E2E_USERS ?? 20);
// A fixed seed: the simulator renders this image once and serves it again, as a provider stand-in
// whose own cost is not what is measured. 1024² is what the default SDXL engine renders for any square
// request (a 512² one included), so every result is marked at that size.
const IMAGE = { kind: 'image', prompt: 'a small lighthouse', width: 1024, height: 1024, seed: 1 };

/**
 * Submit → 'completed' at the owner's socket through the whole stack (API, worker process, zero-latency
 * simulator, relay), at a steady rate, against raw BullMQ add → 'completed' (QueueEvents) at the same
 * rate on the same Redis, twice: with a worker process doing the picture's own work (the provider call,
 * marking, both files written), which any design pays, so the difference is our overhead; and with a
 * no-op worker, the queue's round trip alone.
 */
export async function e2eBench(context: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const rate of RATES) figures.push(...(await measureAt(context, rate)));
  return figures;
}

async function measureAt(context: BenchContext, rate: number): Promise<Figure[]> {
  const jobs = rate * SECONDS;
  const users = context.users.slice(0, USERS);
  const stack = new BenchStack();
  try {
    await stack.simulator(0);
    await stack.worker({ CONCURRENCY_IMAGE: '50' });
    await seedLargeBalances(await stack.databaseUrl(), users);
    const { origin } = await stack.server(context.emulatorHost, { MAX_IN_FLIGHT_PER_USER: '1000' });
    const completedAt = new Map<string, number>();
    const sockets = await connectMany(
      origin,
      users.map((user) => ({ token: user.idToken })),
      (update) => {
        if (update.status === 'completed') completedAt.set(update.id, update.at);
      },
    );
    const submittedAt = new Map<string, number>();
    let refused = 0;
    const body = JSON.stringify(IMAGE);
    const pending: Promise<void>[] = [];
    const start = now();
    for (let index = 0; index < jobs; index += 1) {
      const due = start + (index * 1000) / rate;
      if (due > now()) await sleep(due - now());
      const sent = now();
      pending.push(
        fetch(`${origin}/api/generations`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${users[index % users.length]!.idToken}`,
          },
          body,
        }).then(async (response) => {
          const answer = (await response.json()) as { id?: string };
          if (response.status === 202 && answer.id) submittedAt.set(answer.id, sent);
          else refused += 1;
        }),
      );
    }
    await Promise.all(pending);
    const deadline = Date.now() + 60_000;
    while (completedAt.size < submittedAt.size && Date.now() < deadline) await sleep(100);
    closeAll(sockets);
    const latencies = [...submittedAt].flatMap(([id, sent]) =>
      completedAt.has(id) ? [completedAt.get(id)! - sent] : [],
    );
    const stages = await stageMedians(await stack.databaseUrl(), submittedAt, completedAt);
    const raw = await rawRoundTrips(stack, rate, jobs, 'image');
    const bare = await rawRoundTrips(stack, rate, jobs, 'noop');

    const p = (values: number[], q: number) => percentile(values, q);
    const lost = submittedAt.size - latencies.length;
    const note = `${jobs} image 1024² jobs from ${users.length} users in ${SECONDS} s; ${refused} refused, ${lost} never completed at the socket`;
    return [
      {
        part: 'e2e',
        name: `submit → completed p50 at ${rate} jobs/s`,
        value: p(latencies, 50),
        unit: 'ms',
        ceiling: p(raw, 50),
        ratio: p(latencies, 50) / p(raw, 50),
        target: '< raw + 10 ms',
        met: p(latencies, 50) < p(raw, 50) + 10,
        note: `${note}; raw: the same picture's provider call, marking and files on bare BullMQ`,
      },
      {
        part: 'e2e',
        name: `submit → completed p95 at ${rate} jobs/s`,
        value: p(latencies, 95),
        unit: 'ms',
        ceiling: p(raw, 95),
        ratio: p(latencies, 95) / p(raw, 95),
      },
      {
        part: 'e2e',
        name: `submit → completed p99 at ${rate} jobs/s`,
        value: p(latencies, 99),
        unit: 'ms',
        ceiling: p(raw, 99),
        ratio: p(latencies, 99) / p(raw, 99),
        target: '< 1.5× raw',
        met: p(latencies, 99) < 1.5 * p(raw, 99),
        note: `median of all: ${median(latencies).toFixed(1)} ms`,
      },
      {
        part: 'e2e',
        name: `bare BullMQ round trip at ${rate} jobs/s (no-op job), p50 / p99`,
        value: p(bare, 50),
        unit: 'ms',
        note: `p99 ${p(bare, 99).toFixed(1)} ms: the queue alone, what neither side can go below`,
      },
      {
        part: 'e2e',
        name: `where the p50 goes at ${rate} jobs/s (stage medians, ms)`,
        value: stages.total,
        unit: 'ms',
        note: stages.describe,
      },
    ];
  } finally {
    await stack.stop();
  }
}

/**
 * Medians of each stage of a generation's way, from the record's own timestamps (same machine, same
 * clock): HTTP submit until it is recorded, waiting for a worker, the worker's run (provider call, file,
 * settle), and its end until its owner's socket hears it.
 */
async function stageMedians(
  databaseUrl: string,
  submittedAt: ReadonlyMap<string, number>,
  completedAt: ReadonlyMap<string, number>,
): Promise<{ total: number; describe: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ids = [...submittedAt.keys()].filter((id) => completedAt.has(id));
    const { rows } = await client.query<{ id: string; created: number; started: number; finished: number }>(
      `select id, extract(epoch from created_at) * 1000 as created, extract(epoch from started_at) * 1000 as started,
              extract(epoch from finished_at) * 1000 as finished
       from generations where id = any($1)`,
      [ids],
    );
    const stage = (pick: (row: { id: string; created: number; started: number; finished: number }) => number) =>
      median(
        rows.map((row) =>
          pick({ ...row, created: Number(row.created), started: Number(row.started), finished: Number(row.finished) }),
        ),
      );
    const record = stage((row) => row.created - submittedAt.get(row.id)!);
    const wait = stage((row) => row.started - row.created);
    const run = stage((row) => row.finished - row.started);
    const relay = stage((row) => completedAt.get(row.id)! - row.finished);
    return {
      total: record + wait + run + relay,
      describe: `submit → recorded ${record.toFixed(1)}, recorded → worker ${wait.toFixed(1)}, worker run ${run.toFixed(1)}, finished → socket ${relay.toFixed(1)}`,
    };
  } finally {
    await client.end();
  }
}

/** Raw BullMQ at the same rate: add → bench worker process in `mode` → QueueEvents 'completed'. */
async function rawRoundTrips(stack: BenchStack, rate: number, jobs: number, mode: 'image' | 'noop'): Promise<number[]> {
  const queueName = `raw-e2e-${mode}`;
  const worker = stack.track(
    spawnTs('bench/targets/bench-worker.ts', {
      REDIS_URL,
      QUEUE_PREFIX: stack.prefix,
      QUEUE_NAME: queueName,
      MODE: mode,
      CONCURRENCY: '50',
      SIMULATOR_URL: stack.simulatorUrl,
      DATA_DIR: stack.dataDir,
    }),
  );
  await worker.waitFor(/bench worker ready/);
  const producer = await connectRedis(REDIS_URL, 'producer');
  const eventsConnection = await connectRedis(REDIS_URL, 'blocking');
  const queue = new Queue(queueName, { connection: producer, prefix: stack.prefix });
  const events = new QueueEvents(queueName, { connection: eventsConnection, prefix: stack.prefix });
  try {
    await events.waitUntilReady();
    const done = new Map<string, number>();
    events.on('completed', ({ jobId }) => done.set(jobId, now()));
    const sent = new Map<string, number>();
    const start = now();
    const adds: Promise<unknown>[] = [];
    for (let index = 0; index < jobs; index += 1) {
      const due = start + (index * 1000) / rate;
      if (due > now()) await sleep(due - now());
      const id = `raw_${mode}_${index}`;
      sent.set(id, now());
      adds.push(queue.add('raw', IMAGE, { jobId: id, removeOnComplete: true }));
    }
    await Promise.all(adds);
    const deadline = Date.now() + 30_000;
    while (done.size < jobs && Date.now() < deadline) await sleep(50);
    return [...sent].flatMap(([id, at]) => (done.has(id) ? [done.get(id)! - at] : []));
  } finally {
    await events.close();
    await queue.close();
    await Promise.allSettled([producer.quit(), eventsConnection.quit(), worker.stop()]);
  }
}
