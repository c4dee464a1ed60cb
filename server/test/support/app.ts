import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, Generation, GenerationKind, ServerToClientEvents } from '@mediagen/shared';
import { TEST_REDIS_URL, deleteKeys, testPrefix } from '@mediagen/testing';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { authEmulatorHost } from '@mediagen/testing/vitest';
import { buildApp, type AppDeps } from '../../src/app';
import { loadConfig, type ServerConfig } from '../../src/config';
import type { TestUser } from './users';

export const REDIS_URL = TEST_REDIS_URL;

export interface TestContext {
  prefix: string;
  dataDir: string;
  /** This file's own database, migrated; dropped by `cleanup`. */
  database: TestDatabase;
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

/** A unique database, queue prefix and data directory per test file; everything is removed in `cleanup`. */
export async function createTestContext(): Promise<TestContext> {
  const prefix = testPrefix();
  const dataDir = await mkdtemp(join(tmpdir(), 'mediagen-server-'));
  const database = await createTestDatabase('server');
  const redis = new Redis(REDIS_URL);
  const apps = new Set<TestApp>();
  const config = (overrides: Record<string, string> = {}) =>
    loadConfig({
      MEDIAGEN_MODE: 'development',
      DATABASE_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      PORT: '0',
      FIREBASE_AUTH_EMULATOR_HOST: authEmulatorHost(),
      LOG_LEVEL: 'silent',
      // A test that leaves a download unread must not hold its file's cleanup for long.
      SHUTDOWN_GRACE_MS: '2000',
      ...overrides,
    });
  return {
    prefix,
    dataDir,
    database,
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
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function bearer(user: TestUser): Record<string, string> {
  return { authorization: `Bearer ${user.idToken}` };
}

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A socket.io client that records every generation update it receives. */
export async function connectUserSocket(
  origin: string,
  token: string,
  extraHeaders: Record<string, string> = {},
): Promise<{ socket: TestSocket; updates: Generation[] }> {
  const socket: TestSocket = connectSocket(origin, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders,
  });
  const updates: Generation[] = [];
  socket.on('generation:update', (generation) => updates.push(generation));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return { socket, updates };
}

/** The error a socket handshake with `token` is refused with (its message is the error code). */
export async function socketRefusal(origin: string, token: unknown): Promise<string> {
  const socket = connectSocket(origin, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      socket.once('connect_error', (error) => resolve(error.message));
      socket.once('connect', () => reject(new Error('the socket was let in')));
    });
  } finally {
    socket.close();
  }
}

/** Whether a generation's job has ended in its queue (finished, or taken out): no worker runs or polls it. */
export async function jobEnded(server: TestApp, id: string): Promise<boolean> {
  const kind = id.slice(0, id.indexOf('_')) as GenerationKind;
  const state = await server.app.jobs.queue(kind).getJobState(id);
  return state === 'completed' || state === 'failed' || state === 'unknown';
}
