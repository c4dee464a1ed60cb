import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import { connectRedis, queueName } from '@mediagen/core';
import { createHostNetwork, namespacesUnavailable } from '@mediagen/scripts/host-network';
import { REDIS_URL, median, percentile, sleep, spawnTs, type Child } from '../lib/env';
import type { Figure } from '../lib/report';
import { BenchStack, waitHttp } from '../lib/stack';
import { seedLargeBalances } from '../lib/users';
import type { BenchContext } from '../run';

const API_HOSTS = ['api-1', 'api-2'] as const;
const WORKER_HOSTS = ['worker-1', 'worker-2'] as const;
const CONCURRENCY = 10;
const LATENCY_MS = 200;
/** Offered image submissions per second, each held for STEP_S; the workers' ideal is 100 jobs/s. */
const OFFERED_RATES = [25, 50, 100, 150];
const STEP_S = 6;

/**
 * The stack spread over network namespaces (hosts of their own, each with its own address and data
 * directory): two API hosts behind a round-robin client, two image worker hosts, the data services and
 * the provider simulator on this machine across a bridge, artifacts in files each worker keeps (the
 * simulator's image is what is measured, not storage). Offered load rises step by step; each step
 * reports the submissions accepted and the jobs completed per second, and the first step where the
 * completions fall behind is where it stops.
 */
export async function scaleAcrossHosts(context: BenchContext): Promise<Figure[]> {
  const unavailable = await namespacesUnavailable();
  if (unavailable !== null) {
    console.log(`scale across hosts skipped: ${unavailable}`);
    return [];
  }
  const network = await createHostNetwork([...API_HOSTS, ...WORKER_HOSTS]);
  const stack = new BenchStack();
  const dirs: string[] = [];
  const children: Child[] = [];
  try {
    const across = async (url: string) => {
      const parsed = new URL(url);
      parsed.port = String(await network.forward(Number(parsed.port)));
      parsed.hostname = network.gateway;
      return parsed.toString().replace(/\/$/, '');
    };
    const databaseUrl = await stack.databaseUrl();
    const shared = {
      DATABASE_URL: await across(databaseUrl),
      REDIS_URL: await across(REDIS_URL),
      QUEUE_PREFIX: stack.prefix,
      LOG_LEVEL: 'warn',
    };
    const simulatorUrl = await across(await stack.simulator(LATENCY_MS));
    const emulatorPort = Number(context.emulatorHost.split(':')[1]);
    const emulatorHost = `${network.gateway}:${await network.forward(emulatorPort)}`;
    const dataDir = () => {
      const dir = mkdtempSync(join(tmpdir(), 'mediagen-bench-host-'));
      dirs.push(dir);
      return dir;
    };

    const origins = await Promise.all(
      API_HOSTS.map(async (name) => {
        const host = network.hosts[name]!;
        const origin = `http://${host.address}:3000`;
        const child = spawnTs(
          'server/src/main.ts',
          {
            ...shared,
            DATA_DIR: dataDir(),
            HOST: host.address,
            PORT: '3000',
            FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
            RATE_LIMIT_PER_MINUTE: '100000',
            // Every benchmark client connects from this one machine, up to 50 at a time (lib/sockets.ts).
            SOCKET_PENDING_PER_IP: '10000',
            MAX_IN_FLIGHT_PER_USER: '1000',
          },
          [],
          host.wrap,
        );
        children.push(child);
        await waitHttp(`${origin}/readyz`, child);
        return origin;
      }),
    );
    for (const name of WORKER_HOSTS) {
      const child = spawnTs(
        'worker/src/main.ts',
        {
          ...shared,
          DATA_DIR: dataDir(),
          SIMULATOR_URL: simulatorUrl,
          STABILITY_RATE_LIMIT: 'off',
          WORKER_KINDS: 'image',
          CONCURRENCY_IMAGE: String(CONCURRENCY),
        },
        [],
        network.hosts[name]!.wrap,
      );
      children.push(child);
      await child.waitFor(/\[worker\][^\n]* running /);
    }

    const users = context.users.slice(0, 500);
    await seedLargeBalances(databaseUrl, users);
    const eventsConnection = await connectRedis(REDIS_URL, 'blocking');
    const events = new QueueEvents(queueName('image'), { connection: eventsConnection, prefix: stack.prefix });
    await events.waitUntilReady();
    let completed = 0;
    events.on('completed', () => (completed += 1));

    const ideal = (WORKER_HOSTS.length * CONCURRENCY * 1000) / LATENCY_MS;
    const figures: Figure[] = [];
    let next = 0;
    let stoppedAt: number | null = null;
    for (const offered of OFFERED_RATES) {
      const latencies: number[] = [];
      let accepted = 0;
      let refused = 0;
      const completedBefore = completed;
      const started = performance.now();
      const total = offered * STEP_S;
      const sent: Promise<void>[] = [];
      for (let index = 0; index < total; index += 1) {
        // Open loop: each submission leaves at its time, whatever the answers take.
        const dueAt = started + (index * 1000) / offered;
        const wait = dueAt - performance.now();
        if (wait > 0) await sleep(wait);
        const user = users[next % users.length]!;
        const origin = origins[next % origins.length]!;
        next += 1;
        const sentAt = performance.now();
        sent.push(
          fetch(`${origin}/api/generations`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}` },
            body: JSON.stringify({ kind: 'image', prompt: 'a lighthouse', width: 512, height: 512 }),
          }).then(
            async (response) => {
              await response.arrayBuffer();
              latencies.push(performance.now() - sentAt);
              if (response.status === 202) accepted += 1;
              else refused += 1;
            },
            () => {
              refused += 1;
            },
          ),
        );
      }
      await Promise.all(sent);
      // The step's jobs get the time they would take at the ideal rate, plus a second, to finish.
      const drainUntil = performance.now() + (accepted / ideal) * 1000 + 1000;
      while (completed - completedBefore < accepted && performance.now() < drainUntil) await sleep(50);
      const elapsedS = (performance.now() - started) / 1000;
      const done = completed - completedBefore;
      const rate = done / elapsedS;
      const keptUp = done >= accepted * 0.98 && refused === 0;
      if (!keptUp && stoppedAt === null) stoppedAt = offered;
      figures.push({
        part: 'scale',
        name: `2 API hosts + 2 worker hosts, ${offered} submissions/s offered`,
        value: rate,
        unit: 'jobs/s',
        ceiling: Math.min(offered, ideal),
        ratio: rate / Math.min(offered, ideal),
        note:
          `${accepted} accepted, ${refused} refused, ${done} completed in the step; submit p50 ` +
          `${median(latencies).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
          (keptUp ? 'kept up' : 'fell behind'),
      });
      // Whatever the step left behind finishes before the next step starts.
      const settleUntil = performance.now() + 20_000;
      while (completed - completedBefore < accepted && performance.now() < settleUntil) await sleep(100);
    }
    figures.push({
      part: 'scale',
      name: '2 API hosts + 2 worker hosts: where it stops',
      value: stoppedAt ?? OFFERED_RATES.at(-1)!,
      unit: 'submissions/s',
      ceiling: ideal,
      note:
        stoppedAt === null
          ? `kept up with every offered rate (the workers' ideal is ${ideal} jobs/s)`
          : `first rate not kept up; the workers' ideal is ${ideal} jobs/s (2 hosts × ${CONCURRENCY} / ${LATENCY_MS} ms)`,
    });
    await events.close();
    eventsConnection.disconnect();
    return figures;
  } finally {
    await Promise.allSettled(children.map((child) => child.stop()));
    await network.remove();
    await stack.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
