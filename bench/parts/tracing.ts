import { createServer } from 'node:http';
import { median, percentile } from '../lib/env';
import { OursArm } from '../lib/e2e-arms';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import { DURATION_S, WARM_UP_S, asUsers, rate, warmUp } from '../lib/submit-load';
import { seedLargeBalances, type BenchUser } from '../lib/users';
import type { BenchContext } from '../run';
import { E2E_USERS } from './e2e';

/** Measured runs of each arm, the arms taking turns (which goes first alternates too). */
const RUNS = Number(process.env.BENCH_TRACING_RUNS ?? 5);
/** A rate this machine sustains with cores to spare, so the difference is tracing's, not a backlog's. */
const E2E_RATE = Number(process.env.BENCH_TRACING_RATE ?? 5);
const E2E_SECONDS = Number(process.env.BENCH_TRACING_SECONDS ?? 5);
const HEARD_WITHIN_MS = 30_000;

type Arm = 'off' | 'traced';
const ARMS: readonly Arm[] = ['off', 'traced'];

/** An OTLP/HTTP receiver that reads every export and drops it, as a collector's receiver would take it. */
async function otlpSink(): Promise<{
  url: string;
  exports: () => number;
  bytes: () => number;
  close(): Promise<void>;
}> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      exports += 1;
      // An empty ExportTraceServiceResponse: everything accepted.
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => exports,
    bytes: () => bytes,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** Runs `measure` for each arm RUNS times, alternating which goes first; every result of each arm. */
async function alternating(measure: (arm: Arm) => Promise<number>): Promise<Record<Arm, number[]>> {
  const results: Record<Arm, number[]> = { off: [], traced: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const arm of run % 2 === 0 ? ARMS : [...ARMS].reverse()) results[arm].push(await measure(arm));
  }
  return results;
}

/**
 * What tracing costs at 100 % sampling: the API and a worker exporting every span (OTLP/HTTP protobuf, the
 * default protocol, to a sink in this process) against the same processes with tracing off, in one run,
 * the arms alternating, each figure the median of its runs. Enqueue throughput is POST /api/generations
 * as in the `enqueue` part (20 connections, no worker); latency is submit → completed at the owner's
 * socket, as in `e2e`, at a rate the machine sustains.
 */
export async function tracingBench(context: BenchContext): Promise<Figure[]> {
  const sink = await otlpSink();
  const env: Record<Arm, Record<string, string>> = {
    // Blank is unset: whatever the bench's own environment says, this arm starts no SDK.
    off: { OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    traced: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_on' },
  };
  try {
    const enqueue = await enqueueOverhead(context, env);
    const e2e = await e2eOverhead(context, env);
    const sent = `${sink.exports()} exports, ${(sink.bytes() / 2 ** 20).toFixed(1)} MiB of spans received`;
    const enqueueRatio = median(enqueue.traced) / median(enqueue.off);
    const p50 = { off: median(e2e.off), traced: median(e2e.traced) };
    return [
      {
        part: 'tracing',
        name: `POST /api/generations req/s, traced at 100 % (median of ${RUNS})`,
        value: median(enqueue.traced),
        unit: 'req/s',
        ceiling: median(enqueue.off),
        ratio: enqueueRatio,
        target: '≥ 0.9 of untraced',
        met: enqueueRatio >= 0.9,
        note: `overhead ${((1 - enqueueRatio) * 100).toFixed(1)} %; runs ${enqueue.traced.map((v) => v.toFixed(0)).join('/')} vs off ${enqueue.off.map((v) => v.toFixed(0)).join('/')}`,
      },
      {
        part: 'tracing',
        name: `submit → completed p50 at ${E2E_RATE} jobs/s, traced (median of ${RUNS})`,
        value: p50.traced,
        unit: 'ms',
        ceiling: p50.off,
        ratio: p50.traced / p50.off,
        target: '≤ untraced + 2 ms',
        met: p50.traced <= p50.off + 2,
        note: `+${(p50.traced - p50.off).toFixed(1)} ms; runs ${e2e.traced.map((v) => v.toFixed(0)).join('/')} vs off ${e2e.off.map((v) => v.toFixed(0)).join('/')}; ${sent}`,
      },
    ];
  } finally {
    await sink.close();
  }
}

/** Two API processes, traced and not, each on a stack of its own; the same requests to each in turn. */
async function enqueueOverhead(
  context: BenchContext,
  env: Record<Arm, Record<string, string>>,
): Promise<Record<Arm, number[]>> {
  const stacks = { off: new BenchStack(), traced: new BenchStack() };
  try {
    const users = context.users.slice(0, 1500);
    const origins = {} as Record<Arm, string>;
    for (const arm of ARMS) {
      ({ origin: origins[arm] } = await stacks[arm].server(context.emulatorHost, {
        MAX_IN_FLIGHT_PER_USER: '1000',
        ...env[arm],
      }));
      await seedLargeBalances(await stacks[arm].databaseUrl(), users);
    }
    const submit = {
      method: 'POST',
      path: '/api/generations',
      body: JSON.stringify({ kind: 'image', prompt: 'a lighthouse at dusk' }),
    } as const;
    for (const arm of ARMS) {
      await warmUp(origins[arm], users);
      await asUsers(origins[arm], users, submit, { duration: WARM_UP_S });
    }
    return await alternating(async (arm) => rate(await asUsers(origins[arm], users, submit, { duration: DURATION_S })));
  } finally {
    await Promise.all(ARMS.map((arm) => stacks[arm].stop()));
  }
}

/** Two whole stacks (API, worker, simulator, a socket per submitter), traced and not; p50 of each run. */
async function e2eOverhead(
  context: BenchContext,
  env: Record<Arm, Record<string, string>>,
): Promise<Record<Arm, number[]>> {
  const stacks = { off: new BenchStack(), traced: new BenchStack() };
  const arms: Partial<Record<Arm, OursArm>> = {};
  try {
    const users: Record<Arm, readonly BenchUser[]> = {
      off: context.users.slice(0, E2E_USERS),
      traced: context.users.slice(E2E_USERS, 2 * E2E_USERS),
    };
    for (const arm of ARMS) {
      await stacks[arm].simulator(0);
      arms[arm] = await OursArm.start(stacks[arm], context.emulatorHost, users[arm], env[arm]);
      // One second of the rate first, so neither arm's first run pays for compiling its code.
      const warm = await arms[arm].submit(E2E_RATE, E2E_RATE);
      await arms[arm].waitHeard(warm.sentAt.keys(), HEARD_WITHIN_MS);
    }
    return await alternating(async (arm) => {
      const { sentAt } = await arms[arm]!.submit(E2E_RATE, E2E_RATE * E2E_SECONDS);
      await arms[arm]!.waitHeard(sentAt.keys(), HEARD_WITHIN_MS);
      return percentile(arms[arm]!.latencies(sentAt), 50);
    });
  } finally {
    for (const arm of ARMS) arms[arm]?.close();
    await Promise.all(ARMS.map((arm) => stacks[arm].stop()));
  }
}
