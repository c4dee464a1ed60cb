import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GenerationLifecycle, openDatabase, type RecordDatabase } from '@mediagen/core';
import type { Generation } from '@mediagen/shared';
import { connectUserSocket, createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient } from './support/requests';
import { createTestUser } from './support/users';

/**
 * An update is part of the transition's commit (NOTIFY in the same statement), so no process can lose it
 * by dying after its commit; and a server whose LISTEN connection is lost replays what it missed from the
 * record.
 */
let context: TestContext;
let server: TestApp;
let database: RecordDatabase;
let lifecycle: GenerationLifecycle;

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
  database = openDatabase(context.database.url, { maxConnections: 2 });
  lifecycle = new GenerationLifecycle(database.db);
});

afterAll(async () => {
  await database.close();
  await context.cleanup();
});

const statuses = (updates: Generation[], id: string) =>
  updates.filter((update) => update.id === id).map((update) => `${update.version}:${update.status}`);

describe('updates that outlive their writer', () => {
  it('a process killed right after its commit still has its update delivered, once', async () => {
    const user = await createTestUser();
    const { socket, updates } = await connectUserSocket(server.origin, user.idToken);
    try {
      const accepted = await apiClient(server.origin, user).submit({ kind: 'video', prompt: 'a quiet harbour' });
      expect(accepted.status).toBe(202);
      const { signal, output } = await runFixture('commit-and-die.ts', accepted.body.id);
      expect(signal).toBe('SIGKILL');
      expect(output.trim()).toBe('committed');

      await vi.waitUntil(
        () => updates.some((update) => update.id === accepted.body.id && update.status === 'canceled'),
        {
          timeout: 5000,
          interval: 25,
        },
      );
      expect(statuses(updates, accepted.body.id)).toEqual(['1:queued', '2:canceled']);
    } finally {
      socket.disconnect();
    }
  });

  it('a submission whose process was killed right after its commit is still announced, once', async () => {
    const user = await createTestUser();
    const { socket, updates } = await connectUserSocket(server.origin, user.idToken);
    try {
      const { signal, output } = await runFixture('submit-and-die.ts', user.uid);
      expect(signal).toBe('SIGKILL');
      expect(output.trim()).toBe('committed');

      await vi.waitUntil(() => updates.some((update) => update.status === 'queued'), { timeout: 5000, interval: 25 });
      // Time for a second announcement to arrive, were there one.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(updates.map((update) => `${update.version}:${update.status}`)).toEqual(['1:queued']);
    } finally {
      socket.disconnect();
    }
  });

  it('a server that lost its LISTEN connection replays from the record what it missed: the latest state, once', async () => {
    const user = await createTestUser();
    const { socket, updates } = await connectUserSocket(server.origin, user.idToken);
    try {
      const accepted = await apiClient(server.origin, user).submit({
        kind: 'speech',
        input: 'Hello',
        voice: 'nova',
        language: 'en-US',
      });
      const id = accepted.body.id as string;
      await vi.waitUntil(() => updates.some((update) => update.id === id), { timeout: 5000, interval: 25 });

      // Cut the server's update stream, then move the generation on while it is down.
      await terminateUpdateStreams();
      expect((await lifecycle.start(id)).ok).toBe(true);
      expect((await lifecycle.complete(id, { key: `${id}.wav`, mimeType: 'audio/wav', bytes: 4 })).ok).toBe(true);

      await vi.waitUntil(() => updates.some((update) => update.id === id && update.status === 'completed'), {
        timeout: 15_000,
        interval: 25,
      });
      // A duplicate would come from the replay right after; give it the time to arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The record keeps each generation's latest state, so the replay brings the owner to it: a version
      // passed meanwhile (2:active) may be superseded, but nothing arrives twice or out of order.
      const heard = updates.filter((update) => update.id === id).map((update) => update.version);
      expect(heard).toEqual([...new Set(heard)].sort((a, b) => a - b));
      expect(statuses(updates, id).at(-1)).toBe('3:completed');
    } finally {
      socket.disconnect();
    }
  });
});

/** Runs a fixture that commits and dies; resolves with how it ended and what it printed. */
async function runFixture(file: string, argument: string): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'fixtures', file), argument], {
    env: { ...process.env, DATABASE_URL: context.database.url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((done) =>
    // 'close': after the last line it printed has been read.
    child.once('close', (_code, killed) => done(killed)),
  );
  return { signal, output };
}

/** Ends every LISTEN connection of this test's database, as a failover or a network cut would. */
async function terminateUpdateStreams(): Promise<void> {
  const { rows } = await sql<{ terminated: boolean }>`
    select pg_terminate_backend(pid) as terminated from pg_stat_activity
    where application_name = 'mediagen-updates' and datname = ${context.database.name}`.execute(database.db);
  expect(rows.length).toBeGreaterThan(0);
}
