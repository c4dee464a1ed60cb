import { REDIS_URL, sleep } from '../lib/env';
import { recordedImageJobs } from '../lib/recorded-jobs';
import { Queue } from 'bullmq';
import type { Figure } from '../lib/report';
import { closeAll, connectMany } from '../lib/sockets';
import { BenchStack } from '../lib/stack';
import type { BenchContext } from '../run';
import { connectRedis, queueName } from '@mediagen/core';

const SOCKETS = 1000;

/** Server RSS idle and with 1,000 sockets; worker RSS at concurrency 50 with a 200 ms provider. */
export async function memoryBench(context: BenchContext): Promise<Figure[]> {
  const stack = new BenchStack();
  try {
    const { origin, child: server } = await stack.server(context.emulatorHost);
    await sleep(2000);
    const idle = server.rssMb();
    const users = context.users.slice(0, SOCKETS);
    const sockets = await connectMany(
      origin,
      users.map((user) => ({ token: user.idToken })),
      () => undefined,
    );
    await sleep(3000);
    const loaded = server.rssMb();
    closeAll(sockets);

    await stack.simulator(200);
    const worker = await stack.worker({ CONCURRENCY_IMAGE: '50' });
    await sleep(1000);
    const workerIdle = worker.rssMb();
    const recorded = await recordedImageJobs(await stack.databaseUrl(), 300, {
      prompt: 'a lighthouse',
      width: 512,
      height: 512,
    });
    const producer = await connectRedis(REDIS_URL, 'producer');
    const queue = new Queue(queueName('image'), { connection: producer, prefix: stack.prefix });
    await queue.addBulk(recorded);
    let peak = 0;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      peak = Math.max(peak, worker.rssMb());
      const counts = await queue.getJobCounts('wait', 'active');
      if ((counts.wait ?? 0) + (counts.active ?? 0) === 0) break;
      await sleep(200);
    }
    await queue.close();
    await producer.quit();
    return [
      { part: 'memory', name: 'server RSS idle', value: idle, unit: 'MB' },
      {
        part: 'memory',
        name: `server RSS with ${SOCKETS} sockets`,
        value: loaded,
        unit: 'MB',
        ratio: loaded / 200,
        target: '< 200 MB',
        met: loaded < 200,
        note: `${(((loaded - idle) / SOCKETS) * 1024).toFixed(0)} KB per socket`,
      },
      { part: 'memory', name: 'worker RSS idle (image×50)', value: workerIdle, unit: 'MB' },
      {
        part: 'memory',
        name: 'worker RSS peak, 50 jobs in flight',
        value: peak,
        unit: 'MB',
        note: '300 image jobs, 200 ms provider latency',
      },
    ];
  } finally {
    await stack.stop();
  }
}
