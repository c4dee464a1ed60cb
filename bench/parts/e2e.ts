import { REDIS_URL, median, now, percentile, sleep, spawnTs } from '../lib/env';
import { Queue, QueueEvents } from '../lib/modules';
import type { Figure } from '../lib/report';
import { closeAll, connectMany } from '../lib/sockets';
import { BenchStack } from '../lib/stack';
import type { BenchContext } from '../run';
import { connectRedis } from '../../core/src/redis';

const RATE = Number(process.env.BENCH_E2E_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 10);

/**
 * Submit → 'completed' at the owner's socket through the whole stack (API, worker process, zero-latency
 * simulator, relay), at a steady rate, against raw BullMQ add → 'completed' (QueueEvents) with a no-op
 * worker process, at the same rate, on the same Redis.
 */
export async function e2eBench(context: BenchContext): Promise<Figure[]> {
  const jobs = RATE * SECONDS;
  const users = context.users.slice(context.users.length - jobs);
  if (users.length < jobs) throw new Error(`e2e needs ${jobs} users`);
  const stack = new BenchStack();
  try {
    await stack.simulator(0);
    await stack.worker({ CONCURRENCY_IMAGE: '50' });
    const { origin } = await stack.server(context.emulatorHost);
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
    const body = JSON.stringify({ kind: 'image', prompt: 'a small lighthouse', width: 512, height: 512 });
    const pending: Promise<void>[] = [];
    const start = now();
    for (let index = 0; index < jobs; index += 1) {
      const due = start + (index * 1000) / RATE;
      if (due > now()) await sleep(due - now());
      const sent = now();
      pending.push(
        fetch(`${origin}/api/generations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${users[index]!.idToken}` },
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

    // Raw BullMQ: add → no-op worker → QueueEvents 'completed'.
    const queueName = 'raw-e2e';
    const worker = stack.track(
      spawnTs('bench/targets/bench-worker.ts', {
        REDIS_URL,
        QUEUE_PREFIX: stack.prefix,
        QUEUE_NAME: queueName,
        MODE: 'noop',
        CONCURRENCY: '50',
      }),
    );
    await worker.waitFor(/bench worker ready/);
    const producer = await connectRedis(REDIS_URL, 'producer');
    const eventsConnection = await connectRedis(REDIS_URL, 'blocking');
    const queue = new Queue(queueName, { connection: producer, prefix: stack.prefix });
    const events = new QueueEvents(queueName, { connection: eventsConnection, prefix: stack.prefix });
    await events.waitUntilReady();
    const rawDone = new Map<string, number>();
    events.on('completed', ({ jobId }) => rawDone.set(jobId, now()));
    const rawSent = new Map<string, number>();
    const rawStart = now();
    const adds: Promise<unknown>[] = [];
    for (let index = 0; index < jobs; index += 1) {
      const due = rawStart + (index * 1000) / RATE;
      if (due > now()) await sleep(due - now());
      const id = `raw_${index}`;
      rawSent.set(id, now());
      adds.push(
        queue.add('raw', { kind: 'image', prompt: 'a small lighthouse' }, { jobId: id, removeOnComplete: true }),
      );
    }
    await Promise.all(adds);
    const rawDeadline = Date.now() + 30_000;
    while (rawDone.size < jobs && Date.now() < rawDeadline) await sleep(50);
    const raw = [...rawSent].flatMap(([id, sent]) => (rawDone.has(id) ? [rawDone.get(id)! - sent] : []));
    await events.close();
    await queue.close();
    await Promise.allSettled([producer.quit(), eventsConnection.quit()]);

    const p = (values: number[], q: number) => percentile(values, q);
    const lost = submittedAt.size - latencies.length;
    const note = `${RATE} jobs/s for ${SECONDS} s (${jobs} image 512² jobs; ${refused} refused, ${lost} never completed at the socket)`;
    return [
      {
        part: 'e2e',
        name: 'submit → completed p50',
        value: p(latencies, 50),
        unit: 'ms',
        ceiling: p(raw, 50),
        ratio: p(latencies, 50) / p(raw, 50),
        target: '< raw + 10 ms',
        met: p(latencies, 50) < p(raw, 50) + 10,
        note,
      },
      {
        part: 'e2e',
        name: 'submit → completed p95',
        value: p(latencies, 95),
        unit: 'ms',
        ceiling: p(raw, 95),
        ratio: p(latencies, 95) / p(raw, 95),
      },
      {
        part: 'e2e',
        name: 'submit → completed p99',
        value: p(latencies, 99),
        unit: 'ms',
        ceiling: p(raw, 99),
        ratio: p(latencies, 99) / p(raw, 99),
        target: '< 1.5× raw',
        met: p(latencies, 99) < 1.5 * p(raw, 99),
        note: `median of all: ${median(latencies).toFixed(1)} ms`,
      },
    ];
  } finally {
    await stack.stop();
  }
}
