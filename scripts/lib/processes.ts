import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** Sends SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const COLORS = [36, 35, 33, 32, 34, 31];
let nextColor = 0;

export type LineSink = (name: string, line: string) => void;

export const printLine: LineSink = (name, line) => {
  process.stdout.write(`${name} | ${line}\n`);
};

export function colorPrinter(): LineSink {
  const colors = new Map<string, number>();
  return (name, line) => {
    if (!colors.has(name)) colors.set(name, COLORS[nextColor++ % COLORS.length]!);
    process.stdout.write(`\x1b[${colors.get(name)}m${name.padEnd(9)}\x1b[0m| ${line}\n`);
  };
}

export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; sink: LineSink },
): ManagedProcess {
  // Own process group, so stopping it also stops whatever it spawned (npx → firebase → java-less node).
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) => options.sink(name, line));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // already gone
        }
      };
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitForHttp(
  url: string,
  timeoutMs: number,
  isReady: (status: number) => boolean = (s) => s < 500,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (isReady(response.status)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A port nobody listens on right now, from the OS; for stacks that must not collide with another run. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
