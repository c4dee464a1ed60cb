import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const DEFAULT_EMULATOR_HOST = '127.0.0.1:9099';
export const EMULATOR_PROJECT_ID = 'demo-mediagen';

const FIREBASE_BIN = fileURLToPath(new URL('../../node_modules/.bin/firebase', import.meta.url));
const FIREBASE_JSON = fileURLToPath(new URL('../../firebase.json', import.meta.url));
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

/** Reuses a reachable Auth emulator, or starts one (firebase-tools, offline, demo project) and waits for it. */
export async function ensureAuthEmulator(
  host = process.env.FIREBASE_AUTH_EMULATOR_HOST || DEFAULT_EMULATOR_HOST,
): Promise<RunningEmulator> {
  if (await isEmulatorReachable(host)) return { host, stop: async () => undefined };
  if (host !== DEFAULT_EMULATOR_HOST) {
    throw new Error(
      `FIREBASE_AUTH_EMULATOR_HOST=${host} is not reachable, and only ${DEFAULT_EMULATOR_HOST} can be started here`,
    );
  }

  const output: string[] = [];
  const child: ChildProcess = spawn(
    FIREBASE_BIN,
    ['emulators:start', '--only', 'auth', '--project', EMULATOR_PROJECT_ID, '--config', FIREBASE_JSON],
    // Its own process group, so stopping it also stops anything it started.
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: '' } },
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
