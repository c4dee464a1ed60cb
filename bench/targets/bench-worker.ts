/**
 * Bench processors, in their own process. `progress`: each job reports progress STEPS times at
 * INTERVAL_MS through BullMQ's job.updateProgress (what a bare QueueEvents relay hears). `record-progress`:
 * each job is a generation of the record (DATABASE_URL): it is started through the lifecycle, and its
 * progress goes out on the progress channel as the real worker publishes it. The send times are printed
 * at the end, for the latency to a client. `noop`: returns at once (the raw BullMQ round trip). `image`:
 * does a picture's own work and nothing of ours around it, as any design must: asks the provider at
 * SIMULATOR_URL (the same client), marks the result, and writes both files under DATA_DIR.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { GenerationLifecycle, connectRedis, openDatabase, publishProgress } from '@mediagen/core';
import { DEFAULT_STABILITY_ENGINE, buildStabilityBody } from '@mediagen/shared';
import { StabilityClient, markOutput } from '@mediagen/worker';

const mode = process.env.MODE ?? 'noop';
const steps = Number(process.env.STEPS ?? 50);
const intervalMs = Number(process.env.INTERVAL_MS ?? 100);
// A pause between a job's start and its first step, so what starting costs can be left out of a measure.
const settleMs = Number(process.env.SETTLE_MS ?? 0);
const sent: Record<string, number[]> = {};
const now = () => performance.timeOrigin + performance.now();

const prefix = process.env.QUEUE_PREFIX!;
const connection = await connectRedis(process.env.REDIS_URL!, 'blocking');
const publisher = await connectRedis(process.env.REDIS_URL!, 'producer');
const lifecycle =
  mode === 'record-progress'
    ? new GenerationLifecycle(openDatabase(process.env.DATABASE_URL!, { maxConnections: 10 }).db)
    : null;

const stability = new StabilityClient({
  baseUrl: process.env.SIMULATOR_URL ?? '',
  apiKey: 'simulator',
  engine: DEFAULT_STABILITY_ENGINE,
  timeoutMs: 120_000,
});

async function imageWork(id: string, request: { prompt: string; width: number; height: number; seed: number }) {
  const { prompt, seed, ...options } = request;
  const [sample] = await stability.textToImage(buildStabilityBody(prompt, options, seed));
  if (sample === undefined || 'filtered' in sample) throw new Error('the simulator filtered the image');
  const png = sample.png;
  const { clean, marked } = await markOutput('image', png, 'png');
  const dir = process.env.DATA_DIR!;
  await Promise.all([writeFile(join(dir, `${id}.png`), clean), writeFile(join(dir, `${id}.marked.png`), marked)]);
}

const worker = new Worker(
  process.env.QUEUE_NAME!,
  async (job) => {
    if (mode === 'noop') return { ok: true };
    if (mode === 'image') {
      await imageWork(job.id!, job.data);
      return { ok: true };
    }
    const times: number[] = [];
    sent[job.id!] = times;
    let report = (step: number) => job.updateProgress(step);
    if (lifecycle !== null) {
      const started = await lifecycle.start(job.id!);
      if (!started.ok) throw new Error(`not started: ${started.reason}`);
      const { id, uid, version } = started.generation;
      report = (step) => publishProgress(publisher, prefix, { id, uid, version, progress: step, at: Date.now() });
    }
    if (settleMs > 0) await new Promise((done) => setTimeout(done, settleMs));
    for (let step = 1; step <= steps; step += 1) {
      await new Promise((done) => setTimeout(done, intervalMs));
      times.push(now());
      await report(step);
    }
    return { ok: true };
  },
  { connection, prefix, concurrency: Number(process.env.CONCURRENCY ?? 50) },
);
await worker.waitUntilReady();
console.log('bench worker ready');
process.on('SIGUSR2', () => {
  console.log(`SENT ${JSON.stringify(sent)} END`);
});
process.on('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
