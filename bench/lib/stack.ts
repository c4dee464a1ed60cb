import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { REDIS_URL, deleteKeys, freePort, spawnTs, type Child } from './env';

/** One isolated set of processes (server, workers, simulator) on its own database, key prefix and data dir. */
export class BenchStack {
  readonly prefix = `bench-${randomUUID()}`;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'mediagen-bench-'));
  private readonly children: Child[] = [];
  private record: Promise<TestDatabase> | undefined;
  simulatorUrl = '';
  simulatorProcess: Child | undefined;

  /**
   * The simulator stands for a provider without a request quota unless a part asks for one: the other
   * parts measure the pipeline, not Stability's 15 requests per second (see the `ratelimit` part).
   */
  async simulator(latencyMs: number, env: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    this.simulatorProcess = this.track(
      spawnTs('simulator/src/main.ts', {
        SIMULATOR_PORT: String(port),
        // Its Realtime API's TLS port: any free one (workers ask the simulator which).
        SIMULATOR_TLS_PORT: '0',
        SIMULATOR_LATENCY_MS: String(latencyMs),
        SIMULATOR_RATE_LIMITS: 'off',
        ...env,
      }),
    );
    await waitHttp(`http://127.0.0.1:${port}/__sim/stats`, this.simulatorProcess);
    this.simulatorUrl = `http://127.0.0.1:${port}`;
    return this.simulatorUrl;
  }

  /** This stack's PostgreSQL database (created and migrated on first use, dropped by `stop`). */
  async databaseUrl(): Promise<string> {
    this.record ??= createTestDatabase('bench');
    return (await this.record).url;
  }

  async server(emulatorHost: string, env: Record<string, string> = {}): Promise<{ origin: string; child: Child }> {
    const port = await freePort();
    const child = this.track(
      spawnTs('server/src/main.ts', {
        DATABASE_URL: await this.databaseUrl(),
        REDIS_URL,
        QUEUE_PREFIX: this.prefix,
        DATA_DIR: this.dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
        RATE_LIMIT_PER_MINUTE: '100000',
        // Every benchmark client connects from this one machine, up to 50 at a time (lib/sockets.ts).
        SOCKET_PENDING_PER_IP: '10000',
        LOG_LEVEL: 'warn',
        ...env,
      }),
    );
    const origin = `http://127.0.0.1:${port}`;
    await waitHttp(`${origin}/readyz`, child);
    return { origin, child };
  }

  async worker(env: Record<string, string> = {}): Promise<Child> {
    const child = this.track(
      spawnTs('worker/src/main.ts', {
        DATABASE_URL: await this.databaseUrl(),
        REDIS_URL,
        QUEUE_PREFIX: this.prefix,
        DATA_DIR: this.dataDir,
        SIMULATOR_URL: this.simulatorUrl,
        STABILITY_RATE_LIMIT: 'off',
        ...env,
      }),
    );
    await child.waitFor(/\[worker\][^\n]* running /);
    return child;
  }

  track(child: Child): Child {
    this.children.push(child);
    return child;
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.children.map((child) => child.stop()));
    // The prefix and variants of it (`<prefix>-local`), all of this stack.
    await deleteKeys(`${this.prefix}*`);
    await this.record?.then((database) => database.drop());
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Waits for `url` to answer 2xx; gives up with the process's output as soon as it exits. */
export async function waitHttp(url: string, process: Child, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (process.child.exitCode !== null) {
      throw new Error(
        `${url}: the process exited (${process.child.exitCode}):\n${process.output.join('').slice(-2000)}`,
      );
    }
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
