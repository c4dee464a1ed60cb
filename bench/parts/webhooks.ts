import pg from 'pg';
import { GenerationLifecycle, newGenerationId, openDatabase } from '@mediagen/core';
import { freePort, now, percentile, sleep, spawnTs } from '../lib/env';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import { seedLargeBalances } from '../lib/users';
import type { BenchContext } from '../run';

const RATE = Number(process.env.BENCH_WEBHOOKS_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_WEBHOOKS_SECONDS ?? 15);
/** Enterprise owners, each with one endpoint of its own, taking turns. */
const USERS = 20;
/** How long after the last completion a delivery may still arrive before it counts as never. */
const DRAIN_MS = 30_000;
const REQUEST = { prompt: 'a small lighthouse', width: 512, height: 512, seed: 1 };

/** What bench/targets/webhook-receiver.ts noted: each event once, with receive time − its `timestamp`. */
interface ReceiverResults {
  received: { generationId: string; delayMs: number }[];
  duplicates: number;
}

/**
 * Completion → webhook at the receiver, at RATE completions a second for SECONDS. Enterprise users
 * register an endpoint each through the API; this process then submits, starts and completes image
 * generations through the lifecycle (as a worker's job runner does, without the render and marking, which
 * a loaded 2-core host cannot do 20 times a second and which happen before the completion anyway), each
 * ending's statement writing its webhook event; a worker process's dispatcher and delivery queue send them
 * to a receiver process (bench/targets/webhook-receiver.ts). The delay is the receive time less the envelope's `timestamp`, the
 * ending's clock reading taken just before its statement commits (so the figure errs a few ms high).
 */
export async function webhooksBench(context: BenchContext): Promise<Figure[]> {
  const stack = new BenchStack();
  try {
    const users = context.users.slice(0, USERS);
    const databaseUrl = await stack.databaseUrl();
    await seedLargeBalances(databaseUrl, users);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`update accounts set plan = 'enterprise' where uid = any($1::text[])`, [
      users.map((user) => user.uid),
    ]);
    await client.end();
    await stack.simulator(0);
    const receiverPort = await freePort();
    const receiver = stack.track(spawnTs('bench/targets/webhook-receiver.ts', { PORT: String(receiverPort) }));
    await receiver.waitFor(/listening/);
    const receiverUrl = `http://127.0.0.1:${receiverPort}`;
    const results = async () => (await (await fetch(`${receiverUrl}/results`)).json()) as ReceiverResults;
    const { origin } = await stack.server(context.emulatorHost);
    const worker = await stack.worker({ WORKER_KINDS: 'image' });

    for (const user of users) {
      const response = await fetch(`${origin}/api/webhooks/endpoints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}` },
        body: JSON.stringify({ url: `${receiverUrl}/hooks`, events: ['generation.completed'] }),
      });
      if (response.status !== 201)
        throw new Error(`endpoint registration: ${response.status} ${await response.text()}`);
    }

    const database = openDatabase(databaseUrl, { maxConnections: 8 });
    const lifecycle = new GenerationLifecycle(database.db);
    const jobs = RATE * SECONDS;
    const start = now();
    const cpuBefore = worker.cpuSeconds();
    const completions: Promise<boolean>[] = [];
    for (let index = 0; index < jobs; index += 1) {
      const due = start + (index * 1000) / RATE;
      if (due > now()) await sleep(due - now());
      completions.push(completeOne(lifecycle, users[index % USERS]!.uid));
    }
    const completed = (await Promise.all(completions)).filter(Boolean).length;
    await database.close();
    const deadline = Date.now() + DRAIN_MS;
    let heard = await results();
    while (heard.received.length < completed && Date.now() < deadline) {
      await sleep(250);
      heard = await results();
    }
    const workerCores = (worker.cpuSeconds() - cpuBefore) / ((now() - start) / 1000);
    const stages = await recordStages(databaseUrl);

    const delays = heard.received.map((delivery) => delivery.delayMs);
    const delivered = new Set(heard.received.map((delivery) => delivery.generationId)).size;
    const [p50, p95, max] = [percentile(delays, 50), percentile(delays, 95), Math.max(...delays)];
    const note =
      `${completed} of ${jobs} image generations completed at ${RATE}/s for ${SECONDS} s; ${delivered} delivered ` +
      `(${heard.duplicates} duplicates); ${stages}; worker ${workerCores.toFixed(2)} cores`;
    return [
      {
        part: 'webhooks',
        name: `completion → webhook received, p95, ${RATE} completions/s`,
        value: p95,
        unit: 'ms',
        target: '≤ 1000 ms',
        met: p95 <= 1000 && delivered === completed && completed === jobs,
        note,
      },
      { part: 'webhooks', name: 'completion → webhook received, p50', value: p50, unit: 'ms' },
      { part: 'webhooks', name: 'completion → webhook received, max', value: max, unit: 'ms' },
    ];
  } finally {
    await stack.stop();
  }
}

/** One image generation from submission to completion, as a worker records it; false if any step refused. */
async function completeOne(lifecycle: GenerationLifecycle, uid: string): Promise<boolean> {
  const id = newGenerationId('image');
  const submitted = await lifecycle.submit({
    id,
    uid,
    kind: 'image',
    request: REQUEST,
    prompt: REQUEST.prompt,
    maxInFlight: 1000,
  });
  if (submitted.status !== 'accepted') return false;
  if (!(await lifecycle.start(id)).ok) return false;
  return (await lifecycle.complete(id, { key: `${id}.png`, mimeType: 'image/png', bytes: 10 })).ok;
}

/**
 * Where the delay goes, from the record: the events by state, and the medians of ending → handed to the
 * delivery queue (the dispatcher), handed over → first attempt (the queue), and the first attempt itself.
 */
async function recordStages(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const states = await client.query<{ state: string; count: string }>(
      `select state, count(*) from webhook_events group by state order by state`,
    );
    const stages = await client.query<{ dispatch: number; queue: number; attempt: number }>(
      `with first as (
         select distinct on (a.event_id) a.event_id, a.attempted_at, a.duration_ms
         from webhook_attempts a order by a.event_id, a.id)
       select percentile_cont(0.5) within group (order by extract(epoch from e.enqueued_at - e.created_at)) * 1000 as dispatch,
              percentile_cont(0.5) within group (order by extract(epoch from f.attempted_at - e.enqueued_at)) * 1000 as queue,
              percentile_cont(0.5) within group (order by f.duration_ms) as attempt
       from webhook_events e join first f on f.event_id = e.id`,
    );
    const medians = stages.rows[0]!;
    const events = states.rows.map((row) => `${row.count} ${row.state}`).join(', ') || 'none';
    return (
      `events in the record: ${events}; medians: ending → queued ${Math.round(medians.dispatch)} ms, ` +
      `queued → attempt ${Math.round(medians.queue)} ms, attempt ${Math.round(medians.attempt)} ms`
    );
  } finally {
    await client.end();
  }
}
