import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { freePort, isPortFree } from '@mediagen/scripts/processes';
import { startStack } from '@mediagen/scripts/stack';
import { createTestDatabase } from '@mediagen/core/testing';
import { E2E_WORKERS } from './workers';
import type { StackUrls } from './stack';

/**
 * One whole stack per test worker (E2E_WORKERS), each with a built client, on ports, a database and a key
 * prefix of its own: a file has its stack to itself, its simulator's faults and logs included. The Auth
 * emulator is shared: every test signs up an address of its own.
 */
export default async function setup(project: TestProject) {
  const verbose = process.env.E2E_VERBOSE === '1';
  // The emulator `pnpm test` started for the whole run, or else one the first stack starts. Ports from the
  // OS, so a second run (or `pnpm dev`) on the same machine doesn't collide; the emulator also takes the
  // two ports after its own (hub, logging), so it gets a port with free neighbours.
  const runEmulator = process.env.FIREBASE_AUTH_EMULATOR_HOST || undefined;
  const emulator = runEmulator === undefined ? await emulatorPort() : Number(new URL(`http://${runEmulator}`).port);
  const started = await Promise.allSettled(
    Array.from({ length: E2E_WORKERS }, (_, index) =>
      startWorkerStack(index, { port: emulator, started: runEmulator !== undefined }, verbose),
    ),
  );
  const stacks = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const teardown = async () => {
    await Promise.all(stacks.map((stack) => stack.stop()));
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await teardown();
    throw failed.reason;
  }
  project.provide(
    'stacks',
    stacks.map((stack) => stack.urls),
  );
  return teardown;
}

async function startWorkerStack(index: number, emulator: { port: number; started: boolean }, verbose: boolean) {
  const queuePrefix = `e2e-${randomUUID()}`;
  const database = await createTestDatabase('e2e');
  const label = `stack ${index + 1}`;
  try {
    const stack = await startStack({
      databaseUrl: database.url,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      queuePrefix,
      dataDir: `.data/e2e-${index + 1}`,
      projectId: 'demo-mediagen',
      ports: {
        server: await freePort(),
        simulator: await freePort(),
        simulatorTls: 0,
        emulator: emulator.port,
        client: await freePort(),
      },
      // Unless the run has one, the first stack starts the emulator; the others wait for it.
      sharedEmulator: emulator.started || index > 0,
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
        // A browser test drives one user faster than a person does (the library's tests send about 120 API
        // requests in their first minute, the default limit); the limit itself is the server tests' subject.
        RATE_LIMIT_PER_MINUTE: '600',
      },
      sink: (name, line) => {
        if (verbose || /error/i.test(line)) process.stdout.write(`[${label} ${name}] ${line}\n`);
      },
    });
    const urls: StackUrls = { ...stack.urls, queuePrefix, databaseUrl: database.url };
    return {
      urls,
      stop: async () => {
        await stack.stop();
        await database.drop();
        await dropKeys(queuePrefix);
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

async function dropKeys(queuePrefix: string) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const keys = await redis.keys(`${queuePrefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}

async function emulatorPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65_000 && (await isPortFree(port + 1)) && (await isPortFree(port + 2))) return port;
  }
}
