import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
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

    const emulatorUp = await fetch(`http://${urls.emulator}/`).then(
      () => true,
      () => false,
    );
    if (!emulatorUp) {
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
      const build = startProcess('build', vite, ['build', '--mode', 'development'], {
        cwd: clientDir,
        env: clientEnv,
        sink,
      });
      const code = await new Promise<number | null>((done) => build.child.once('exit', done));
      if (code !== 0) throw new Error('client build failed');
      processes.push(
        startProcess('client', vite, ['preview', ...clientArgs], { cwd: clientDir, env: clientEnv, sink }),
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
