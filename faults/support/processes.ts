import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@mediagen/scripts/processes';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface ChildHandle {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
  /** Signals the whole process group (tsx runs the script in a child process of its own). */
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
  alive(): boolean;
}

function track(child: ChildProcess): ChildHandle {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  // 'close', not 'exit': the process may have ended before the last of what it printed has been read.
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  let exitedFlag = false;
  void exited.then(() => (exitedFlag = true));
  const kill = (signal: NodeJS.Signals) => {
    if (exitedFlag || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  return {
    child,
    output,
    exited,
    kill,
    alive: () => !exitedFlag,
    async stop() {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface WorkerProcess extends ChildHandle {
  ready: Promise<void>;
}

/**
 * Runs one of our processes' production bundle (built once for the run: testing/src/bundles-setup.ts) with
 * node; `wrap` puts it somewhere else (a network namespace).
 */
function spawnEntry(
  entry: string,
  env: Record<string, string>,
  wrap: (command: readonly string[]) => string[] = (command) => [...command],
): ChildHandle {
  // node itself runs the bundle (`ip netns exec` execs it): a signal reaches it, not a wrapper.
  const [command, ...args] = wrap([process.execPath, entry]);
  const child = spawn(command!, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', FORCE_COLOR: '0', ...env },
  });
  return track(child);
}

/** A real worker process (`worker/dist/main.js`), in its own process group so SIGKILL takes all of it. */
export function spawnWorker(
  env: Record<string, string>,
  wrap?: (command: readonly string[]) => string[],
): WorkerProcess {
  const handle = spawnEntry(
    'worker/dist/main.js',
    // Several workers share this machine: no fixed metrics port.
    { MEDIAGEN_MODE: 'development', WORKER_METRICS_PORT: '0', ...env },
    wrap,
  );
  const { child } = handle;
  const ready = new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`worker did not start:\n${handle.output.join('')}`)), 30_000);
    child.stdout?.on('data', () => {
      if (/\[worker\][^\n]* running /.test(handle.output.join(''))) {
        clearTimeout(timer);
        done();
      }
    });
    void handle.exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`worker exited (${code}) before it was ready:\n${handle.output.join('')}`));
    });
  });
  ready.catch(() => undefined);
  return { ...handle, ready };
}

/** A real API server (`server/dist/main.js`); resolves once `origin`/readyz answers 200. */
export async function spawnServer(
  env: Record<string, string>,
  origin: string,
  wrap?: (command: readonly string[]) => string[],
): Promise<ChildHandle> {
  return untilReady(spawnEntry('server/dist/main.js', { MEDIAGEN_MODE: 'development', ...env }, wrap), origin);
}

/**
 * The production build of the server (`server/dist/main.js`), run by plain node with exactly `env` besides
 * PATH and HOME, as a deployment runs it; resolves once `origin`/readyz answers 200.
 */
export async function spawnBuiltServer(env: Record<string, string>, origin: string): Promise<ChildHandle> {
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  return untilReady(track(child), origin);
}

async function untilReady(handle: ChildHandle, origin: string): Promise<ChildHandle> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await fetch(`${origin}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return handle;
    if (Date.now() > deadline || !handle.alive()) {
      handle.kill('SIGKILL');
      throw new Error(`the server did not become ready:\n${handle.output.join('')}`);
    }
    await sleep(100);
  }
}

/** How a process finds Redis: one address, or the sentinels that name the primary (core's RedisEndpoint). */
export type RedisEnv = { REDIS_URL: string } | { REDIS_SENTINELS: string; REDIS_SENTINEL_NAME: string };

/**
 * Two worker processes for an outage test: one image and one speech slot each, so some jobs run at the
 * provider while the rest wait in the queue when the outage begins. `env` names the stores and adds settings.
 */
export async function outageWorkers(
  env: {
    DATABASE_URL: string;
    QUEUE_PREFIX: string;
    DATA_DIR: string;
    SIMULATOR_URL: string;
  } & RedisEnv &
    Record<string, string>,
): Promise<WorkerProcess[]> {
  const workers = [0, 1].map(() =>
    spawnWorker({
      VIDEO_POLL_INTERVAL_MS: '100',
      SHUTDOWN_GRACE_MS: '1000',
      CONCURRENCY_IMAGE: '1',
      CONCURRENCY_SPEECH: '1',
      ...env,
    }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  return workers;
}

export interface DedicatedRedis {
  url: string;
  port: number;
  dir: string;
  start(): Promise<void>;
  /** SIGTERM: Redis writes and fsyncs its append-only file before it exits. */
  stop(): Promise<void>;
  /** SIGKILL, as when its host dies: what it had not yet passed on to a replica is gone. */
  crash(): Promise<void>;
  remove(): Promise<void>;
}

export interface DedicatedRedisOptions {
  /** Starts as a replica of the Redis on this port (on 127.0.0.1). */
  replicaOf?: number;
  /** More redis-server settings, as `--name value` arguments. */
  settings?: readonly string[];
}

/** A redis-server of the test's own, with AOF in a temp dir, on a free port; never the machine's Redis. */
export async function dedicatedRedis(options: DedicatedRedisOptions = {}): Promise<DedicatedRedis> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'mediagen-faults-redis-'));
  let handle: ChildHandle | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const redis: DedicatedRedis = {
    url,
    port,
    dir,
    async start() {
      handle = await startRedisServer(port, [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--dir',
        dir,
        '--save',
        '',
        ...(options.replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(options.replicaOf)]),
        ...(options.settings ?? []),
      ]);
    },
    async stop() {
      await handle?.stop();
    },
    async crash() {
      handle?.kill('SIGKILL');
      await handle?.exited;
    },
    async remove() {
      await handle?.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await redis.start();
  return redis;
}

/** Starts `redis-server <args>` (a data node, or a sentinel with `--sentinel`) and waits until `port` answers PING. */
export async function startRedisServer(port: number, args: readonly string[]): Promise<ChildHandle> {
  const handle = track(spawn('redis-server', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] }));
  const deadline = Date.now() + 10_000;
  while (!(await ping(port))) {
    if (Date.now() > deadline || !handle.alive()) {
      handle.kill('SIGKILL');
      throw new Error(`redis-server ${args.join(' ')} did not start:\n${handle.output.join('')}`);
    }
    await sleep(50);
  }
  return handle;
}

async function ping(port: number): Promise<boolean> {
  try {
    const { connect } = await import('node:net');
    return await new Promise((done) => {
      const socket = connect({ host: '127.0.0.1', port });
      const finish = (ok: boolean) => {
        socket.destroy();
        done(ok);
      };
      socket.setTimeout(500, () => finish(false));
      socket.once('error', () => finish(false));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => finish(data.toString().startsWith('+PONG')));
    });
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
