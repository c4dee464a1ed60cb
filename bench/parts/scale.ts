import { randomInt } from 'node:crypto';
import { cpus } from 'node:os';
import { REDIS_URL, sleep } from '../lib/env';
import { Queue, QueueEvents } from '../lib/modules';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import type { BenchContext } from '../run';
import { connectRedis } from '../../core/src/redis';
import { generationJobOptions, newGenerationId, queueName } from '../../core/src/generation-queues';

const PROCESS_COUNTS = [1, 2, 4];
const CONCURRENCY = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 10);
const LATENCY_MS = 200;

/** Completed image jobs per second with a 200 ms provider as worker processes go 1 → 2 → 4. */
export async function scaleBench(_context: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  let single = 0;
  for (const processes of PROCESS_COUNTS) {
    const stack = new BenchStack();
    try {
      await stack.simulator(LATENCY_MS);
      const workers = [];
      for (let index = 0; index < processes; index += 1)
        workers.push(await stack.worker({ CONCURRENCY_IMAGE: String(CONCURRENCY), WORKER_KINDS: 'image' }));
      const producer = await connectRedis(REDIS_URL, 'producer');
      const eventsConnection = await connectRedis(REDIS_URL, 'blocking');
      const queue = new Queue(queueName('image'), { connection: producer, prefix: stack.prefix });
      const events = new QueueEvents(queueName('image'), { connection: eventsConnection, prefix: stack.prefix });
      await events.waitUntilReady();
      const ideal = (processes * CONCURRENCY * 1000) / LATENCY_MS;
      const jobs = Math.round(Math.min(ideal, 250) * 6);
      let completed = 0;
      let firstAt = 0;
      let lastAt = 0;
      events.on('completed', () => {
        completed += 1;
        if (firstAt === 0) firstAt = Date.now();
        lastAt = Date.now();
      });
      const cpuBefore = process.cpuUsage();
      const started = Date.now();
      await queue.addBulk(
        Array.from({ length: jobs }, (_, index) => ({
          name: 'image',
          data: {
            uid: `bench-${index}`,
            kind: 'image',
            createdAt: Date.now(),
            request: { prompt: 'a lighthouse', width: 512, height: 512, seed: randomInt(1000) },
          },
          opts: generationJobOptions(newGenerationId('image'), { attempts: 1, backoffMs: 0 }),
        })),
      );
      const deadline = Date.now() + 60_000;
      while (completed < jobs && Date.now() < deadline) await sleep(50);
      void cpuBefore;
      const rate = (completed * 1000) / Math.max(1, lastAt - started);
      if (processes === 1) single = rate;
      figures.push({
        part: 'scale',
        name: `jobs/s, ${processes} worker process${processes > 1 ? 'es' : ''} × image concurrency ${CONCURRENCY}`,
        value: rate,
        unit: 'jobs/s',
        ceiling: ideal,
        ratio: rate / ideal,
        note: `${completed}/${jobs} done; ×${(rate / single).toFixed(2)} of 1 process; ideal = processes × concurrency / ${LATENCY_MS} ms; ${cpus().length} cores`,
      });
      await events.close();
      await queue.close();
      await Promise.allSettled([producer.quit(), eventsConnection.quit()]);
    } finally {
      await stack.stop();
    }
  }
  return figures;
}
