import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EMULATOR_PROJECT_ID = 'demo-mediagen';

const FIREBASE_BIN = fileURLToPath(new URL('../../node_modules/.bin/firebase', import.meta.url));
const START_TIMEOUT_MS = 90_000;

export async function isEmulatorReachable(host: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

export interface RunningEmulator {
  host: string;
  /** Stops the emulator if this process started it; a reused one is left alone. */
  stop(): Promise<void>;
}

/**
 * The Auth emulator FIREBASE_AUTH_EMULATOR_HOST names, or else a private one started here (firebase-tools,
 * offline, demo project) on free ports. Never one found on the default port: that may be `pnpm dev`'s, or
 * another test run's, which would take it away when it ends, in the middle of this run's sign-ups.
 */
export async function ensureAuthEmulator(
  host = process.env.FIREBASE_AUTH_EMULATOR_HOST || undefined,
): Promise<RunningEmulator> {
  if (host === undefined) return startAuthEmulator();
  if (await isEmulatorReachable(host)) return { host, stop: async () => undefined };
  throw new Error(`FIREBASE_AUTH_EMULATOR_HOST=${host} is not reachable`);
}

async function startAuthEmulator(): Promise<RunningEmulator> {
  const ports = await freeEmulatorPorts();
  const host = `127.0.0.1:${ports.auth}`;
  const configDir = mkdtempSync(join(tmpdir(), 'mediagen-auth-emulator-'));
  const configFile = join(configDir, 'firebase.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: ports.auth },
        hub: { host: '127.0.0.1', port: ports.hub },
        logging: { host: '127.0.0.1', port: ports.logging },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const output: string[] = [];
  const child: ChildProcess = spawn(
    FIREBASE_BIN,
    ['emulators:start', '--only', 'auth', '--project', EMULATOR_PROJECT_ID, '--config', configFile],
    // Its own process group, so stopping it also stops anything it started.
    {
      cwd: configDir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: '' },
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  let stopping = false;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // An emulator gone mid-run fails whichever tests sign in next with "fetch failed": say why it went.
  child.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(
      `The Firebase Auth emulator at ${host} exited (code ${code}, signal ${signal}):\n${output.join('').slice(-4000)}\n`,
    );
  });

  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
    rmSync(configDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await isEmulatorReachable(host))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The Firebase Auth emulator did not start:\n${output.join('').slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { host, stop };
}

/** Three free ports: the emulator's own, and its hub's and logging's, which it also listens on. */
async function freeEmulatorPorts(): Promise<{ auth: number; hub: number; logging: number }> {
  const [auth, hub, logging] = await Promise.all([freePort(), freePort(), freePort()]);
  return { auth, hub, logging };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
