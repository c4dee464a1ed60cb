import pg from 'pg';
import { now, percentile, sleep } from '../lib/env';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import { seedLargeBalances } from '../lib/users';
import type { BenchContext } from '../run';

/** Image renders of this long, two at a time: the queue serves 10 jobs/s. */
const LATENCY_MS = 200;
const CONCURRENCY = 2;
/** Submissions per second, twice what the workers serve, for this long: the queue only grows. */
const RATE = Number(process.env.BENCH_PRIORITY_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_PRIORITY_SECONDS ?? 15);
const USERS = 20;
const IMAGE = JSON.stringify({ kind: 'image', prompt: 'a small lighthouse', width: 512, height: 512, seed: 1 });

/**
 * Pro and Free waits with the image queue saturated: half the submitters are on Pro, half on Free, taking
 * turns at twice the rate the workers serve. A job's wait is its record's `created_at` → `started_at`.
 * Priority aging is set past the run, so what is measured is the plain priority.
 */
export async function priorityBench(context: BenchContext): Promise<Figure[]> {
  const stack = new BenchStack();
  try {
    const users = context.users.slice(0, USERS);
    const databaseUrl = await stack.databaseUrl();
    await stack.simulator(LATENCY_MS);
    await seedLargeBalances(databaseUrl, users);
    const pro = new Set(users.filter((_, index) => index % 2 === 0).map((user) => user.uid));
    await withDatabase(databaseUrl, (client) =>
      client.query(`update accounts set plan = 'pro' where uid = any($1::text[])`, [[...pro]]),
    );
    const { origin } = await stack.server(context.emulatorHost, { MAX_IN_FLIGHT_PER_USER: '1000' });
    await stack.worker({
      WORKER_KINDS: 'image',
      CONCURRENCY_IMAGE: String(CONCURRENCY),
      PRIORITY_AGING_SECONDS: '3600',
    });

    const jobs = RATE * SECONDS;
    const start = now();
    const pending: Promise<unknown>[] = [];
    for (let index = 0; index < jobs; index += 1) {
      const due = start + (index * 1000) / RATE;
      if (due > now()) await sleep(due - now());
      pending.push(
        fetch(`${origin}/api/generations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${users[index % USERS]!.idToken}` },
          body: IMAGE,
        }),
      );
    }
    await Promise.all(pending);
    const deadline = Date.now() + (jobs / (1000 / LATENCY_MS) / CONCURRENCY) * 1000 * 3 + 30_000;
    let rows: { uid: string; wait_ms: number | null }[] = [];
    while (Date.now() < deadline) {
      rows = (
        await withDatabase(databaseUrl, (client) =>
          client.query<{ uid: string; wait_ms: number | null }>(
            `select uid, extract(epoch from started_at - created_at) * 1000 as wait_ms from generations`,
          ),
        )
      ).rows;
      if (rows.length >= jobs && rows.every((row) => row.wait_ms !== null)) break;
      await sleep(500);
    }
    const waits = (plan: 'pro' | 'free') =>
      rows
        .filter((row) => pro.has(row.uid) === (plan === 'pro') && row.wait_ms !== null)
        .map((row) => Number(row.wait_ms));
    const [proWaits, freeWaits] = [waits('pro'), waits('free')];
    const started = proWaits.length + freeWaits.length;
    const note = `${jobs} image jobs at ${RATE}/s for ${SECONDS} s against ${(1000 / LATENCY_MS) * CONCURRENCY}/s served; ${started} started`;
    return [
      {
        part: 'priority',
        name: 'job wait p50, Pro ÷ Free, image queue saturated',
        value: percentile(proWaits, 50),
        unit: 'ms',
        ceiling: percentile(freeWaits, 50),
        ratio: percentile(proWaits, 50) / percentile(freeWaits, 50),
        target: '≤ 0.2',
        met: percentile(proWaits, 50) / percentile(freeWaits, 50) <= 0.2 && started === jobs,
        note: `Pro p50 ${Math.round(percentile(proWaits, 50))} ms vs Free ${Math.round(percentile(freeWaits, 50))} ms; ${note}`,
      },
      {
        part: 'priority',
        name: 'job wait p95, Pro ÷ Free',
        value: percentile(proWaits, 95),
        unit: 'ms',
        ceiling: percentile(freeWaits, 95),
        ratio: percentile(proWaits, 95) / percentile(freeWaits, 95),
        note: `Pro p95 ${Math.round(percentile(proWaits, 95))} ms vs Free ${Math.round(percentile(freeWaits, 95))} ms`,
      },
    ];
  } finally {
    await stack.stop();
  }
}

async function withDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
