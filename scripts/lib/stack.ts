import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_STRIPE_PRICES, DEFAULT_WEBHOOK_SECRET } from '@mediagen/simulator';
import { startProcess, waitForHttp, type LineSink, type ManagedProcess } from './processes';
import { ensurePostgres } from './postgres';
import { ensureRedis, pingRedis } from './redis';

export const ROOT = resolve(import.meta.dirname, '../..');
const bin = (name: string, dir = ROOT) => resolve(dir, 'node_modules/.bin', name);

export interface StackOptions {
  /** The record: its database is created if missing, and a cluster started if none answers locally. */
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  dataDir: string;
  projectId: string;
  /** `simulatorTls`: the simulator's Realtime API over TLS (0: any free port; workers ask the simulator which). */
  ports: { server: number; simulator: number; simulatorTls: number; emulator: number; client: number };
  /** 'dev' runs Vite's dev server, 'preview' serves a build made with this stack's settings, 'none' skips it. */
  client: 'dev' | 'preview' | 'none';
  /** Another stack starts the Auth emulator on `ports.emulator`: this one only waits for it. */
  sharedEmulator?: boolean;
  /** Extra variables for the server and worker (e.g. faster video polling in tests). */
  env?: Record<string, string>;
  sink: LineSink;
}

export interface Stack {
  urls: { api: string; simulator: string; emulator: string; client: string };
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

function emulatorConfig(dataDir: string, port: number): string {
  const path = resolve(dataDir, 'firebase.json');
  writeFileSync(
    path,
    // The hub and logging ports are pinned next to the auth port, so two stacks (dev and tests) can coexist.
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: port + 1 },
        logging: { host: '127.0.0.1', port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  return path;
}

/** A test-mode key the stand-in accepts (it takes any `sk_test_…`); it reaches nothing but the stand-in. */
const STAND_IN_SECRET_KEY = 'sk_test_mediagen_stand_in';

/**
 * Billing through the simulator's Stripe stand-in, so checkout works with no keys: the simulator signs its
 * webhooks with the secret the server verifies, and sends them to the server's endpoint. A STRIPE_SECRET_KEY
 * of one's own (a Stripe test-mode account, from .env) keeps the Stripe settings it comes with instead.
 */
function stripeStandInEnv(urls: { api: string; simulator: string }) {
  // Blank counts as unset, as the server reads it (a .env copied whole from .env.example has it blank).
  if (process.env.STRIPE_SECRET_KEY?.trim()) return { simulator: {}, server: {} };
  return {
    simulator: {
      STRIPE_WEBHOOK_URL: `${urls.api}/api/billing/webhook`,
      STRIPE_WEBHOOK_SECRET: DEFAULT_WEBHOOK_SECRET,
    },
    server: {
      STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
      STRIPE_API_URL: urls.simulator,
      STRIPE_WEBHOOK_SECRET: DEFAULT_WEBHOOK_SECRET,
      // The stand-in's lookup keys (`pro_monthly` …) are the settings' own names (STRIPE_PRICE_PRO_MONTHLY …).
      ...Object.fromEntries(
        DEFAULT_STRIPE_PRICES.map((price) => [`STRIPE_PRICE_${price.lookupKey.toUpperCase()}`, price.id]),
      ),
    },
  };
}

/**
 * Starts the whole local stack: PostgreSQL and Redis if needed, auth emulator, simulator, worker, server
 * and client.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const { ports, sink } = options;
  const dataDir = resolve(ROOT, options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const processes: ManagedProcess[] = [];
  const stop = async () => {
    await Promise.all([...processes].reverse().map((process) => process.stop()));
  };

  try {
    const postgres = await ensurePostgres(options.databaseUrl, dataDir, sink);
    if (postgres) processes.push(postgres);
    const redis = await ensureRedis(options.redisUrl, dataDir, sink);
    if (redis) processes.push(redis);

    const urls = {
      api: `http://127.0.0.1:${ports.server}`,
      simulator: `http://127.0.0.1:${ports.simulator}`,
      emulator: `127.0.0.1:${ports.emulator}`,
      client: `http://127.0.0.1:${ports.client}`,
    };
    // This is the local stack (emulator, simulator, built-in secrets): it asks for development mode.
    const baseEnv = { ...process.env, FORCE_COLOR: '0', MEDIAGEN_MODE: 'development' };
    const backendEnv = {
      ...baseEnv,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      QUEUE_PREFIX: options.queuePrefix,
      DATA_DIR: dataDir,
      ...options.env,
    };
    const stripe = stripeStandInEnv(urls);

    const emulatorUp = await fetch(`http://${urls.emulator}/`).then(
      () => true,
      () => false,
    );
    if (!emulatorUp && options.sharedEmulator !== true) {
      processes.push(
        startProcess(
          'auth',
          bin('firebase'),
          [
            'emulators:start',
            '--only',
            'auth',
            '--project',
            options.projectId,
            '--config',
            emulatorConfig(dataDir, ports.emulator),
          ],
          { cwd: dataDir, env: baseEnv, sink },
        ),
      );
    }
    processes.push(
      startProcess('simulator', bin('tsx'), ['simulator/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...baseEnv,
          SIMULATOR_PORT: String(ports.simulator),
          SIMULATOR_TLS_PORT: String(ports.simulatorTls),
          ...stripe.simulator,
          ...options.env,
        },
        sink,
      }),
      startProcess('worker', bin('tsx'), ['worker/src/main.ts'], {
        cwd: ROOT,
        env: { ...backendEnv, SIMULATOR_URL: urls.simulator },
        sink,
      }),
      startProcess('server', bin('tsx'), ['server/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...backendEnv,
          PORT: String(ports.server),
          HOST: '127.0.0.1',
          FIREBASE_PROJECT_ID: options.projectId,
          FIREBASE_AUTH_EMULATOR_HOST: urls.emulator,
          CORS_ORIGIN: `${urls.client},http://localhost:${ports.client}`,
          ...stripe.server,
          ...options.env,
        },
        sink,
      }),
    );

    const clientEnv = {
      ...baseEnv,
      VITE_API_URL: urls.api,
      // Token sync on (spec §7): the client's server forwards /api/session to the API, on the app's origin.
      VITE_TOKEN_SYNC_URL: '/api/session',
      MEDIAGEN_API_ORIGIN: urls.api,
      VITE_FIREBASE_PROJECT_ID: options.projectId,
      VITE_FIREBASE_AUTH_EMULATOR_HOST: urls.emulator,
    };
    const clientDir = resolve(ROOT, 'client');
    const vite = bin('vite', clientDir);
    const clientArgs = ['--host', '127.0.0.1', '--port', String(ports.client), '--strictPort'];
    if (options.client === 'preview') {
      // The build has this stack's addresses in it, so each stack builds into its own data directory.
      // The local settings (`--mode development`: client/.env.development) in the code users get
      // (NODE_ENV=production): React's development build renders everything twice and checks as it goes,
      // which more than doubled the browser's work in the browser tests, and is not what ships.
      const outDir = resolve(dataDir, 'client-dist');
      const build = startProcess(
        'build',
        vite,
        ['build', '--mode', 'development', '--outDir', outDir, '--emptyOutDir'],
        {
          cwd: clientDir,
          env: { ...clientEnv, NODE_ENV: 'production' },
          sink,
        },
      );
      const code = await new Promise<number | null>((done) => build.child.once('exit', done));
      if (code !== 0) throw new Error('client build failed');
      processes.push(
        startProcess('client', vite, ['preview', '--outDir', outDir, ...clientArgs], {
          cwd: clientDir,
          env: clientEnv,
          sink,
        }),
      );
    } else if (options.client === 'dev') {
      processes.push(startProcess('client', vite, clientArgs, { cwd: clientDir, env: clientEnv, sink }));
    }

    await Promise.all([
      waitForHttp(`http://${urls.emulator}/`, 60_000),
      waitForHttp(`${urls.simulator}/__sim/stats`, 30_000),
      waitForHttp(`${urls.api}/readyz`, 30_000, (status) => status === 200),
      options.client === 'none' ? Promise.resolve() : waitForHttp(urls.client, 60_000),
    ]);
    if (!(await pingRedis(options.redisUrl))) throw new Error('Redis went away during start-up');
    return { urls, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
