import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { startStack } from '../../scripts/lib/stack';

const PORTS = { server: 3310, simulator: 4310, emulator: 9399, client: 4373 };

/** The whole stack, with a built client, on ports of its own and a key prefix of its own. */
export default async function setup(project: TestProject) {
  const queuePrefix = `e2e-${randomUUID()}`;
  const verbose = process.env.E2E_VERBOSE === '1';
  const stack = await startStack({
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    queuePrefix,
    dataDir: '.data/e2e',
    projectId: 'demo-mediagen',
    ports: PORTS,
    client: 'preview',
    // Fast enough for a test, slow enough that progress visibly rises.
    env: {
      VIDEO_POLL_INTERVAL_MS: '250',
      WORKER_METRICS_PORT: '0',
      SIMULATOR_VIDEO_QUEUEING_MS: '500',
      SIMULATOR_VIDEO_PROCESSING_MS: '2000',
      SIMULATOR_LATENCY_MS: '600',
    },
    sink: (name, line) => {
      if (verbose || /error/i.test(line)) process.stdout.write(`[${name}] ${line}\n`);
    },
  });
  project.provide('stack', { ...stack.urls, queuePrefix });
  return async () => {
    await stack.stop();
    const { Redis } = await import('ioredis');
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${queuePrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  };
}
