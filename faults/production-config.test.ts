import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys } from '@mediagen/testing';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { freePort } from '@mediagen/scripts/processes';
import { ROOT } from './support/processes';
import { Redis } from 'ioredis';

/**
 * The production builds (`pnpm build`, made once for the suite), started the way a deployment starts them:
 * with a production-like environment that lacks the required settings, or carries unsafe ones. Each
 * refuses to start and names every one of them at once; with everything given, each starts.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `prod-config-${process.pid}`;
let dataDir: string;
let database: TestDatabase;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mediagen-prod-config-'));
  database = await createTestDatabase('prod_config');
}, 120_000);
afterAll(async () => {
  const redis = new Redis(REDIS_URL);
  await deleteKeys(redis, `${prefix}:*`);
  await redis.quit();
  await rm(dataDir, { recursive: true, force: true });
  await database.drop();
});

interface Run {
  code: number | null;
  output: string;
}

/** Runs a built entry with exactly `env` (nothing inherited but PATH), until it exits or prints `ready`. */
function run(entry: string, env: Record<string, string>, ready: RegExp): Promise<Run & { started: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let started = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!started && ready.test(output)) {
        started = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    // After its output is read to the end, not merely after it exited.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, started });
    });
  });
}

describe('the built server', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: '0.0.0.0',
      FIREBASE_PROJECT_ID: 'mediagen-prod-check',
      ARTIFACT_URL_SECRET: 'a'.repeat(48),
      ACCOUNT_TRACE_SECRET: 'b'.repeat(48),
      API_KEY_HMAC_SECRET: 'c'.repeat(48),
      WEBHOOK_SECRET_KEY: 'w'.repeat(48),
      PUBLIC_URL: 'https://api.mediagen.example',
      CORS_ORIGIN: 'https://mediagen.example',
      METRICS_TOKEN: 'scrape-token-0123456789',
      SMTP_URL: 'smtps://mediagen:secret@smtp.mediagen.example',
      SUPPORT_EMAIL_FROM: 'MediaGen support <support@mediagen.example>',
    };
  });
  const entry = 'server/dist/main.js';
  const ready = /Server listening/;

  it('starts in production with every setting given', async () => {
    const result = await run(entry, env, ready);
    expect(result.started, result.output).toBe(true);
    expect(result.output).not.toContain('development');
  });

  const required = [
    'DATABASE_URL',
    'REDIS_URL',
    'DATA_DIR',
    'FIREBASE_PROJECT_ID',
    'ARTIFACT_URL_SECRET',
    'ACCOUNT_TRACE_SECRET',
    'API_KEY_HMAC_SECRET',
    'WEBHOOK_SECRET_KEY',
    'PUBLIC_URL',
    'CORS_ORIGIN',
    'METRICS_TOKEN',
    'SMTP_URL',
  ];

  it('refuses to start without its required settings, naming each of them at once', async () => {
    const result = await run(
      entry,
      Object.fromEntries(Object.entries(env).filter(([name]) => !required.includes(name))),
      ready,
    );
    expect(result.started).toBe(false);
    expect(result.code).toBe(1);
    for (const name of required) expect(result.output).toContain(`Missing required environment variable: ${name}`);
  });

  const unsafe = [
    ['FIREBASE_PROJECT_ID', 'demo-mediagen'],
    ['ARTIFACT_URL_SECRET', 'short'],
    ['ACCOUNT_TRACE_SECRET', 'short'],
    ['API_KEY_HMAC_SECRET', 'short'],
    ['PUBLIC_URL', 'http://api.mediagen.example'],
    ['SMTP_URL', 'http://smtp.mediagen.example'],
  ] as const;

  it('refuses to start with unsafe settings, naming each of them at once', async () => {
    const result = await run(entry, { ...env, ...Object.fromEntries(unsafe) }, ready);
    expect(result.started).toBe(false);
    expect(result.code).toBe(1);
    for (const [name] of unsafe) expect(result.output).toMatch(new RegExp(`- ${name} `));
  });

  it('refuses a mode it does not know, and an emulator host even blank, naming both', async () => {
    // firebase-admin trusts unsigned tokens whenever the variable exists, whatever its value.
    const result = await run(entry, { ...env, MEDIAGEN_MODE: 'dev', FIREBASE_AUTH_EMULATOR_HOST: ' ' }, ready);
    expect(result.started).toBe(false);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/- MEDIAGEN_MODE /);
    expect(result.output).toMatch(/- FIREBASE_AUTH_EMULATOR_HOST /);
  });
});

describe('the built worker', () => {
  let env: Record<string, string>;
  beforeAll(() => {
    env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: '/tmp/mediagen-prod-config-worker',
      WORKER_METRICS_PORT: '0',
      STABILITY_API_KEY: 'sk-stability-placeholder-free',
      MINIMAX_API_KEY: 'minimax-key-placeholder-free',
      OPENAI_API_KEY: 'sk-openai-placeholder-free',
      // Webhook deliveries: the endpoints' sealed secrets, and the result links in their payloads.
      WEBHOOK_SECRET_KEY: 'w'.repeat(48),
      ARTIFACT_URL_SECRET: 'a'.repeat(48),
      PUBLIC_URL: 'https://api.mediagen.example',
    };
  });
  const entry = 'worker/dist/main.js';
  const ready = /\[worker\][^\n]* running /;

  it('starts in production with every setting given, on the real providers', async () => {
    const result = await run(entry, env, ready);
    expect(result.started, result.output).toBe(true);
    expect(result.output).not.toContain('simulator');
  });

  it('refuses to start without its required settings, naming each of them at once', async () => {
    const required = [
      'DATABASE_URL',
      'REDIS_URL',
      'DATA_DIR',
      'STABILITY_API_KEY',
      'MINIMAX_API_KEY',
      'OPENAI_API_KEY',
      'WEBHOOK_SECRET_KEY',
      'ARTIFACT_URL_SECRET',
      'PUBLIC_URL',
    ];
    const result = await run(entry, { WORKER_METRICS_PORT: '0' }, ready);
    expect(result.started).toBe(false);
    expect(result.code).toBe(1);
    for (const name of required) expect(result.output).toContain(`Missing required environment variable: ${name}`);
  });

  it('refuses open metrics beyond loopback, and the simulator, naming both at once', async () => {
    const result = await run(
      entry,
      { ...env, WORKER_METRICS_PORT: '9464', WORKER_METRICS_HOST: '0.0.0.0', SIMULATOR_URL: 'http://127.0.0.1:4010' },
      ready,
    );
    expect(result.started).toBe(false);
    expect(result.output).toContain('Missing required environment variable: METRICS_TOKEN');
    expect(result.output).toContain('SIMULATOR_URL must not be set unless MEDIAGEN_MODE=development');
  });
});

describe('the provider simulator', () => {
  it('refuses to start outside development mode', () => {
    const simulator = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['simulator/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', SIMULATOR_PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(simulator.status).toBe(1);
    expect(simulator.stderr).toContain('only runs when MEDIAGEN_MODE=development');
  });
});
