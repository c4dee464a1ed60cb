import { cpus } from 'node:os';
import { REDIS_URL, sleep, type Child } from '../lib/env';
import { recordedImageJobs } from '../lib/recorded-jobs';
import { Queue, QueueEvents } from 'bullmq';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import type { BenchContext } from '../run';
import { scaleAcrossHosts } from './scale-hosts';
import { connectRedis, queueName } from '@mediagen/core';

const PROCESS_COUNTS = [1, 2, 4];
const CONCURRENCY = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 10);
const LATENCY_MS = 200;

/** Redis's own CPU time so far (INFO cpu), to tell which process a run was bound by. */
async function redisCpuSeconds(redis: { info(section: string): Promise<string> }): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/**
 * Completed image jobs per second with a 200 ms provider as worker processes go 1 → 2 → 4, and where the
 * CPU went (cores used by the workers, the simulator and Redis over the run), to show what stops it;
 * then the same pipeline spread over hosts (`scale-hosts.ts`).
 */
export async function scaleBench(context: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  let single = 0;
  for (const processes of PROCESS_COUNTS) {
    const stack = new BenchStack();
    try {
      await stack.simulator(LATENCY_MS);
      const workers: Child[] = [];
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
      const cpu = () => ({
        workers: workers.reduce((sum, worker) => sum + worker.cpuSeconds(), 0),
        simulator: stack.simulatorProcess!.cpuSeconds(),
      });
      const recorded = await recordedImageJobs(await stack.databaseUrl(), jobs, {
        prompt: 'a lighthouse',
        width: 512,
        height: 512,
        seed: 1,
      });
      const cpuBefore = cpu();
      const redisBefore = await redisCpuSeconds(producer);
      const started = Date.now();
      await queue.addBulk(recorded);
      const deadline = Date.now() + 60_000;
      while (completed < jobs && Date.now() < deadline) await sleep(50);
      const elapsedS = Math.max(1, lastAt - started) / 1000;
      const cpuAfter = cpu();
      const cores = (seconds: number) => (seconds / elapsedS).toFixed(2);
      const cpuNote = `cores used: workers ${cores(cpuAfter.workers - cpuBefore.workers)}, simulator ${cores(cpuAfter.simulator - cpuBefore.simulator)}, Redis ${cores((await redisCpuSeconds(producer)) - redisBefore)}`;
      const rate = completed / elapsedS;
      if (processes === 1) single = rate;
      figures.push({
        part: 'scale',
        name: `jobs/s, ${processes} worker process${processes > 1 ? 'es' : ''} × image concurrency ${CONCURRENCY}`,
        value: rate,
        unit: 'jobs/s',
        ceiling: ideal,
        ratio: rate / ideal,
        note: `${completed}/${jobs} done; ×${(rate / single).toFixed(2)} of 1 process; ideal = processes × concurrency / ${LATENCY_MS} ms; ${cpuNote} of ${cpus().length}`,
      });
      await events.close();
      await queue.close();
      await Promise.allSettled([producer.quit(), eventsConnection.quit()]);
    } finally {
      await stack.stop();
    }
  }
  figures.push(...(await scaleAcrossHosts(context)));
  return figures;
}
