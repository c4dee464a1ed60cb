import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
export { freePort } from '@mediagen/scripts/processes';

export const ROOT = resolve(import.meta.dirname, '../..');
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
export const now = () => performance.timeOrigin + performance.now();

export interface Child {
  child: ChildProcess;
  pid: number;
  output: string[];
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  rssMb(): number;
  /** User + system CPU time the process has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** With BENCH_CPU_PROFILE=<dir>, every process a part starts writes a V8 CPU profile there when it exits. */
const profileFlags = process.env.BENCH_CPU_PROFILE
  ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROFILE)}`]
  : [];

/**
 * A TypeScript entry run by node itself (`--import tsx`), so the pid is the process that does the work;
 * `wrap` runs it elsewhere (`ip netns exec`, which execs it: the pid stays node's).
 */
export function spawnTs(
  file: string,
  env: Record<string, string>,
  args: string[] = [],
  wrap: (command: readonly string[]) => string[] = (command) => [...command],
): Child {
  const [command, ...commandArgs] = wrap([process.execPath, ...profileFlags, '--import', 'tsx', file, ...args]);
  const child = spawn(command!, commandArgs, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The bench runs the development stack (emulator, simulator), so it asks for development mode.
    env: {
      ...process.env,
      MEDIAGEN_MODE: 'development',
      FORCE_COLOR: '0',
      LOG_LEVEL: 'warn',
      WORKER_METRICS_PORT: '0',
      ...env,
    },
  });
  const output: string[] = [];
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 2000) output.splice(0, 1000);
    listeners.forEach((listener) => listener());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    child,
    pid: child.pid!,
    output,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((done, fail) => {
        const check = () => {
          const match = pattern.exec(output.join(''));
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            done(match[1] ?? match[0]);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          fail(new Error(`${file}: no ${pattern} within ${timeoutMs} ms:\n${output.join('').slice(-2000)}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => setTimeout(check, 10));
        check();
      });
    },
    cpuSeconds() {
      // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), in clock ticks of 1/100 s; the name in
      // field 2 may hold spaces, so count from its closing parenthesis.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function deleteKeys(pattern: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  await redis.quit();
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
