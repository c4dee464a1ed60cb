import { cpus } from 'node:os';
import { REDIS_URL, sleep, type Child } from '../lib/env';
import { recordedImageJobs } from '../lib/recorded-jobs';
import { Queue, QueueEvents } from 'bullmq';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import type { BenchContext } from '../run';
import { connectRedis, queueName } from '@mediagen/core';

const PROCESSES = 4;
/** Stability's documented limit, which the simulator enforces by default: 150 per 10 s, then 60 s out. */
const LIMIT = { max: 150, windowMs: 10_000, lockoutMs: 60_000 };
const WINDOWS = Number(process.env.BENCH_RATELIMIT_WINDOWS ?? 6);
const LATENCY_MS = 100;

/**
 * Image jobs per second with 4 worker processes against the simulator enforcing Stability's limit,
 * as a ratio of the limit (150 / 10 s = 15 jobs/s), and how many lockouts the fleet caused. The rate
 * is the sustained one: jobs after the first 150, over the time from the 150th completion to the last,
 * so a client that bursts through the first window gains nothing by it (the workers' calls leave
 * evenly spaced anyway, (10 s + PROVIDER_RATE_MARGIN_MS) / 150 apart).
 */
export async function rateLimitBench(_context: BenchContext): Promise<Figure[]> {
  const stack = new BenchStack();
  try {
    await stack.simulator(LATENCY_MS, { SIMULATOR_RATE_LIMITS: 'documented' });
    const workers: Child[] = [];
    for (let index = 0; index < PROCESSES; index += 1) {
      workers.push(
        await stack.worker({
          WORKER_KINDS: 'image',
          STABILITY_RATE_LIMIT: `${LIMIT.max}/${LIMIT.windowMs}/${LIMIT.lockoutMs}`,
        }),
      );
    }
    const producer = await connectRedis(REDIS_URL, 'producer');
    const eventsConnection = await connectRedis(REDIS_URL, 'blocking');
    const queue = new Queue(queueName('image'), { connection: producer, prefix: stack.prefix });
    const events = new QueueEvents(queueName('image'), { connection: eventsConnection, prefix: stack.prefix });
    await events.waitUntilReady();
    const completedAt: number[] = [];
    events.on('completed', () => completedAt.push(Date.now()));

    const jobs = LIMIT.max * WINDOWS;
    const recorded = await recordedImageJobs(await stack.databaseUrl(), jobs, {
      prompt: 'a lighthouse',
      width: 1024,
      height: 1024,
      seed: 1,
    });
    const cpuBefore = workers.reduce((sum, worker) => sum + worker.cpuSeconds(), 0);
    await queue.addBulk(recorded);
    const deadline = Date.now() + WINDOWS * (LIMIT.windowMs + 2000) + LIMIT.lockoutMs;
    while (completedAt.length < jobs && Date.now() < deadline) await sleep(100);

    const stats = (await (await fetch(`${stack.simulatorUrl}/__sim/stats`)).json()) as {
      lockouts: number;
      rateLimited: { image: number };
      requests: { image: number };
    };
    const times = [...completedAt].sort((a, b) => a - b);
    const sustainedS = (times[times.length - 1]! - times[LIMIT.max - 1]!) / 1000;
    const rate = (times.length - LIMIT.max) / sustainedS;
    const ceiling = (LIMIT.max * 1000) / LIMIT.windowMs;
    const workerCores = (workers.reduce((sum, worker) => sum + worker.cpuSeconds(), 0) - cpuBefore) / sustainedS;
    await events.close();
    await queue.close();
    await Promise.allSettled([producer.quit(), eventsConnection.quit()]);
    return [
      {
        part: 'ratelimit',
        name: `image jobs/s at Stability's limit, ${PROCESSES} worker processes`,
        value: rate,
        unit: 'jobs/s',
        ceiling,
        ratio: rate / ceiling,
        target: '≥ 0.95',
        met: rate / ceiling >= 0.95 && completedAt.length === jobs,
        note: `${completedAt.length}/${jobs} done over ${WINDOWS} windows, sustained after the first ${LIMIT.max}; ${stats.requests.image} provider requests; worker cores ${workerCores.toFixed(2)} of ${cpus().length}`,
      },
      {
        part: 'ratelimit',
        name: 'provider lockouts (429s) caused by the fleet',
        value: stats.lockouts,
        unit: 'lockouts',
        target: '0',
        met: stats.lockouts === 0,
        note: `${stats.rateLimited.image} requests refused by the simulator's limit`,
      },
    ];
  } finally {
    await stack.stop();
  }
}
