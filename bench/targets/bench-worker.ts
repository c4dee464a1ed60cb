/**
 * Bench processors, in their own process. `progress`: each job reports progress STEPS times at
 * INTERVAL_MS and the send times are printed at the end (for the latency from updateProgress to a
 * client). `noop`: returns at once (the raw BullMQ round trip).
 */
import { Worker } from 'bullmq';
import { connectRedis } from '@mediagen/core';

const mode = process.env.MODE ?? 'noop';
const steps = Number(process.env.STEPS ?? 50);
const intervalMs = Number(process.env.INTERVAL_MS ?? 100);
const sent: Record<string, number[]> = {};
const now = () => performance.timeOrigin + performance.now();

const connection = await connectRedis(process.env.REDIS_URL!, 'blocking');
const worker = new Worker(
  process.env.QUEUE_NAME!,
  async (job) => {
    if (mode === 'noop') return { ok: true };
    const times: number[] = [];
    sent[job.id!] = times;
    for (let step = 1; step <= steps; step += 1) {
      await new Promise((done) => setTimeout(done, intervalMs));
      times.push(now());
      await job.updateProgress(step);
    }
    return { ok: true };
  },
  { connection, prefix: process.env.QUEUE_PREFIX!, concurrency: Number(process.env.CONCURRENCY ?? 50) },
);
await worker.waitUntilReady();
console.log('bench worker ready');
process.on('SIGUSR2', () => {
  console.log(`SENT ${JSON.stringify(sent)} END`);
});
process.on('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
