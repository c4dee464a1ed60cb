import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { startProcess, type LineSink, type ManagedProcess } from './processes';

export function pingRedis(redisUrl: string, timeoutMs = 1000): Promise<boolean> {
  const url = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    // A password-protected Redis answers -NOAUTH: it is there, and the app will authenticate.
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
  });
}

/**
 * Local start (README, "Quick start"): use a reachable REDIS_URL, else start `redis-server` from PATH (with AOF, so
 * queued jobs survive a restart), else say how to get one.
 */
export async function ensureRedis(redisUrl: string, dataDir: string, sink: LineSink): Promise<ManagedProcess | null> {
  if (await pingRedis(redisUrl)) return null;
  const url = new URL(redisUrl);
  const local = ['127.0.0.1', 'localhost', '::1'].includes(url.hostname);
  const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
  if (!local || !hasRedisServer) {
    throw new Error(
      `Redis is not reachable at ${redisUrl}.\n` +
        (local
          ? 'Install Redis (e.g. `apt-get install redis-server` or `brew install redis`) or start one with `docker compose up -d redis`.'
          : 'Check REDIS_URL.'),
    );
  }
  const dir = `${dataDir}/redis`;
  mkdirSync(dir, { recursive: true });
  const redis = startProcess(
    'redis',
    'redis-server',
    ['--port', url.port || '6379', '--bind', url.hostname, '--appendonly', 'yes', '--dir', dir, '--save', ''],
    { cwd: process.cwd(), env: process.env, sink },
  );
  const deadline = Date.now() + 10_000;
  while (!(await pingRedis(redisUrl))) {
    if (Date.now() > deadline) throw new Error(`redis-server did not start on ${redisUrl}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return redis;
}
