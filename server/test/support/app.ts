import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, Generation, ServerToClientEvents } from '@mediagen/shared';
import { buildApp, type AppDeps } from '../../src/app';
import { loadConfig, type ServerConfig } from '../../src/config';
import { authEmulatorHost, type TestUser } from './users';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestContext {
  prefix: string;
  dataDir: string;
  config(overrides?: Record<string, string>): ServerConfig;
  /** Builds an app on this file's prefix, listening on a free port; closed by `cleanup`. */
  start(overrides?: Record<string, string>, deps?: AppDeps): Promise<TestApp>;
  redis: Redis;
  cleanup(): Promise<void>;
}

export interface TestApp {
  app: FastifyInstance;
  origin: string;
  close(): Promise<void>;
}

/** A unique queue prefix and data directory per test file; everything is removed in `cleanup`. */
export async function createTestContext(): Promise<TestContext> {
  const prefix = `test-${randomUUID()}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'mediagen-server-'));
  const redis = new Redis(REDIS_URL);
  const apps = new Set<TestApp>();
  const config = (overrides: Record<string, string> = {}) =>
    loadConfig({
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      PORT: '0',
      FIREBASE_AUTH_EMULATOR_HOST: authEmulatorHost(),
      LOG_LEVEL: 'silent',
      ...overrides,
    });
  return {
    prefix,
    dataDir,
    redis,
    config,
    async start(overrides, deps) {
      const app = await buildApp(config(overrides), deps);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const testApp: TestApp = {
        app,
        origin: `http://127.0.0.1:${port}`,
        async close() {
          apps.delete(testApp);
          await app.close();
        },
      };
      apps.add(testApp);
      return testApp;
    },
    async cleanup() {
      await Promise.allSettled([...apps].map((testApp) => testApp.close()));
      await deleteKeys(redis, `${prefix}:*`);
      await redis.quit();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

export function bearer(user: TestUser): Record<string, string> {
  return { authorization: `Bearer ${user.idToken}` };
}

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A socket.io client that records every generation update it receives. */
export async function connectUserSocket(
  origin: string,
  token: string,
): Promise<{ socket: TestSocket; updates: Generation[] }> {
  const socket: TestSocket = connectSocket(origin, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const updates: Generation[] = [];
  socket.on('generation:update', (generation) => updates.push(generation));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return { socket, updates };
}

/** Polls until `check` returns a value (or throws the last failure after `timeoutMs`). */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
