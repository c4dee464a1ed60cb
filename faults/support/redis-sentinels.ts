import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { vi } from 'vitest';
import type { RedisEndpoint } from '@mediagen/core';
import { freePort } from '@mediagen/scripts/processes';
import { dedicatedRedis, startRedisServer, type ChildHandle, type DedicatedRedis } from './processes';

const SENTINELS = 3;
const QUORUM = 2;
// A test-sized failover: a primary silent for 1 s is down; a failover that stalls is tried again after 5 s.
const DOWN_AFTER_MS = 1000;
const FAILOVER_TIMEOUT_MS = 5000;
// Generous: this machine has two cores and other suites run beside this one.
const SETTLE_TIMEOUT_MS = 30_000;

/** A primary, its replica and three sentinels watching them, all of the test's own on free ports. */
export interface SentinelGroup {
  name: string;
  primary: DedicatedRedis;
  replica: DedicatedRedis;
  endpoint: RedisEndpoint;
  /** What a process is given to connect through the sentinels. */
  env: { REDIS_SENTINELS: string; REDIS_SENTINEL_NAME: string };
  /** The port of the node the sentinels name as the primary now. */
  primaryPort(): Promise<number>;
  /**
   * The replica stops receiving the primary's writes (its link is cut and its cron, which would reconnect
   * it, paused), like a replica lagging behind: what the primary accepts from now on is lost with it.
   */
  holdReplication(): Promise<void>;
  /** The replica's cron runs again: it reconnects, or waits to be promoted. */
  releaseReplication(): Promise<void>;
  remove(): Promise<void>;
}

/** One command to one node on a connection of its own: the nodes come and go during the test. */
async function command(port: number, ...args: [string, ...(string | number)[]]): Promise<unknown> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await redis.call(...args);
  } finally {
    redis.disconnect();
  }
}

/** `INFO`-style and `SENTINEL MASTER`-style answers as a map. */
function fields(answer: unknown): Map<string, string> {
  if (typeof answer === 'string') {
    return new Map(
      answer.split('\r\n').flatMap((line) => (line.includes(':') ? [line.split(':', 2) as [string, string]] : [])),
    );
  }
  const list = answer as string[];
  return new Map(
    list.flatMap((value, index) => (index % 2 === 0 ? [[value, list[index + 1]!] as [string, string]] : [])),
  );
}

async function startSentinel(
  name: string,
  primaryPort: number,
): Promise<{ port: number; handle: ChildHandle; dir: string }> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'mediagen-faults-sentinel-'));
  // Sentinel rewrites its configuration file as it learns the group, so each gets a file of its own.
  const config = join(dir, 'sentinel.conf');
  await writeFile(
    config,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${primaryPort} ${QUORUM}`,
      `sentinel down-after-milliseconds ${name} ${DOWN_AFTER_MS}`,
      `sentinel failover-timeout ${name} ${FAILOVER_TIMEOUT_MS}`,
      `sentinel parallel-syncs ${name} 1`,
      '',
    ].join('\n'),
  );
  try {
    return { port, dir, handle: await startRedisServer(port, [config, '--sentinel']) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts the group and waits until it could fail over: the replica in sync, and every sentinel aware of
 * the replica and of the two other sentinels (a quorum of two, and a majority to elect a leader).
 */
export async function startSentinelGroup(name = 'mediagen-faults'): Promise<SentinelGroup> {
  const sentinels: { port: number; handle: ChildHandle; dir: string }[] = [];
  let primary: DedicatedRedis | undefined;
  let replica: DedicatedRedis | undefined;
  const remove = async () => {
    await Promise.all(sentinels.map(({ handle }) => handle.stop()));
    await Promise.all(sentinels.map(({ dir }) => rm(dir, { recursive: true, force: true })));
    await Promise.all([primary?.remove(), replica?.remove()]);
  };
  try {
    primary = await dedicatedRedis();
    // DEBUG (for PAUSE-CRON) from this machine only, and only on the test's own replica.
    replica = await dedicatedRedis({ replicaOf: primary.port, settings: ['--enable-debug-command', 'local'] });
    const replicaPort = replica.port;
    await vi.waitUntil(
      async () => fields(await command(replicaPort, 'INFO', 'replication')).get('master_link_status') === 'up',
      { timeout: SETTLE_TIMEOUT_MS, interval: 100 },
    );
    for (let index = 0; index < SENTINELS; index += 1) sentinels.push(await startSentinel(name, primary.port));
    await vi.waitUntil(
      async () => {
        for (const { port } of sentinels) {
          const master = fields(await command(port, 'SENTINEL', 'MASTER', name));
          if (master.get('num-slaves') !== '1' || master.get('num-other-sentinels') !== String(SENTINELS - 1))
            return false;
        }
        return true;
      },
      { timeout: SETTLE_TIMEOUT_MS, interval: 200 },
    );
  } catch (error) {
    await remove();
    throw error;
  }
  const addresses = sentinels.map(({ port }) => ({ host: '127.0.0.1', port }));
  const heldReplica = replica;
  return {
    name,
    primary,
    replica,
    endpoint: { kind: 'sentinel', sentinels: addresses, name, sentinelPassword: null, url: null },
    env: {
      REDIS_SENTINELS: addresses.map(({ host, port }) => `${host}:${port}`).join(','),
      REDIS_SENTINEL_NAME: name,
    },
    async primaryPort() {
      const [, port] = (await command(sentinels[0]!.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as [
        string,
        string,
      ];
      return Number(port);
    },
    async holdReplication() {
      await command(heldReplica.port, 'DEBUG', 'PAUSE-CRON', 1);
      await command(heldReplica.port, 'CLIENT', 'KILL', 'TYPE', 'master');
    },
    async releaseReplication() {
      await command(heldReplica.port, 'DEBUG', 'PAUSE-CRON', 0);
    },
    remove,
  };
}
