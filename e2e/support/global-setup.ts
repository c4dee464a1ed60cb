import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { freePort, isPortFree } from '@mediagen/scripts/processes';
import { startStack } from '@mediagen/scripts/stack';
import { createTestDatabase } from '@mediagen/core/testing';

/** The whole stack, with a built client, on ports of its own and a key prefix of its own. */
export default async function setup(project: TestProject) {
  const queuePrefix = `e2e-${randomUUID()}`;
  const verbose = process.env.E2E_VERBOSE === '1';
  const database = await createTestDatabase('e2e');
  const stack = await startStack({
    databaseUrl: database.url,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    queuePrefix,
    dataDir: '.data/e2e',
    projectId: 'demo-mediagen',
    // Ports from the OS, so a second run (or `pnpm dev`) on the same machine doesn't collide. The emulator
    // also takes the two ports after its own (hub, logging), so it gets a port with free neighbours.
    ports: {
      server: await freePort(),
      simulator: await freePort(),
      simulatorTls: 0,
      emulator: await emulatorPort(),
      client: await freePort(),
    },
    client: 'preview',
    // Fast enough for a test, slow enough that progress visibly rises: a provider call spans two of the
    // worker's progress ticks, however loaded the machine.
    env: {
      VIDEO_POLL_INTERVAL_MS: '250',
      WORKER_METRICS_PORT: '0',
      SIMULATOR_VIDEO_QUEUEING_MS: '500',
      SIMULATOR_VIDEO_PROCESSING_MS: '2000',
      SIMULATOR_LATENCY_MS: '1200',
      // Stability's 60 s lockout after a 429, shortened below the Retry-After the queue test sends (8 s).
      STABILITY_RATE_LIMIT: '150/10000/5000',
    },
    sink: (name, line) => {
      if (verbose || /error/i.test(line)) process.stdout.write(`[${name}] ${line}\n`);
    },
  });
  project.provide('stack', { ...stack.urls, queuePrefix, databaseUrl: database.url });
  return async () => {
    await stack.stop();
    await database.drop();
    const { Redis } = await import('ioredis');
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${queuePrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  };
}

async function emulatorPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65_000 && (await isPortFree(port + 1)) && (await isPortFree(port + 2))) return port;
  }
}
