import { now, percentile } from '../lib/env';
import { OursArm, RawArm } from '../lib/e2e-arms';
import { GRACE_SECONDS, classifyUnheard, lateOrLostFigure } from '../lib/late-or-lost';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import { stageMedians } from '../lib/stage-medians';
import type { BenchContext } from '../run';

/** The steady rate, then one this machine sustains with cores to spare (what overhead alone costs). */
const RATES = (process.env.BENCH_E2E_RATES ?? '200,20').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 10);
/**
 * Submitters, each with one socket and a large balance, taking turns. Few enough that the bench's own
 * socket clients (one process) do not become what is measured; the raw side has a single listener.
 */
export const E2E_USERS = Number(process.env.BENCH_E2E_USERS ?? 20);
/** How long after the last submission the run waits for the sockets before judging what is missing. */
const WINDOW_MS = 60_000;

/**
 * Submit → 'completed' at the owner's socket through the whole stack (API, worker process, zero-latency
 * simulator, relay), at a steady rate, against raw BullMQ add → 'completed' (QueueEvents) at the same
 * rate on the same Redis, twice: with a worker process doing the picture's own work (the provider call,
 * marking, both files written), which any design pays, so the difference is our overhead; and with a
 * no-op worker, the queue's round trip alone. A generation not heard within the window is listened for
 * a while longer and then judged late or lost from the record (lib/late-or-lost.ts).
 */
export async function e2eBench(context: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const rate of RATES) figures.push(...(await measureAt(context, rate)));
  return figures;
}

async function measureAt(context: BenchContext, rate: number): Promise<Figure[]> {
  const jobs = rate * SECONDS;
  const users = context.users.slice(0, E2E_USERS);
  const stack = new BenchStack();
  const raws: RawArm[] = [];
  let ours: OursArm | undefined;
  try {
    await stack.simulator(0);
    // Both raw workers start before the run (then wait on Redis): a loaded machine starts no process in time.
    const [raw, bare] = [await RawArm.start(stack, 'image'), await RawArm.start(stack, 'noop')];
    raws.push(raw, bare);
    ours = await OursArm.start(stack, context.emulatorHost, users);
    const { sentAt, ownerOf, refused } = await ours.submit(rate, jobs);
    const unheard = await ours.waitHeard(sentAt.keys(), WINDOW_MS);
    const windowEnd = now();
    const verdict = await classifyUnheard(
      await stack.databaseUrl(),
      ours,
      sentAt.size,
      new Map(unheard.map((id) => [id, { windowEnd, owner: ownerOf.get(id)! }])),
    );
    ours.close();
    const lateOrLost = lateOrLostFigure('e2e', `late or lost at ${rate} jobs/s`, verdict);
    console.log(`e2e at ${rate} jobs/s: ${lateOrLost.note}`);
    const latencies = ours.latencies(sentAt);
    const stages = await stageMedians(await stack.databaseUrl(), sentAt, ours.heard);
    // The raw arms get as long as ours had: the window and the grace period.
    const rawLatencies = await raw.roundTrips(rate, jobs, WINDOW_MS + GRACE_SECONDS * 1000);
    const bareLatencies = await bare.roundTrips(rate, jobs, WINDOW_MS + GRACE_SECONDS * 1000);

    const p = (values: number[], q: number) => percentile(values, q);
    const note = `${jobs} image 1024² jobs from ${users.length} users in ${SECONDS} s; ${refused} refused; one never heard counts as ∞`;
    return [
      {
        ...against(p(latencies, 50), p(rawLatencies, 50), (ours, raw) => ours < raw + 10),
        name: `submit → completed p50 at ${rate} jobs/s`,
        target: '< raw + 10 ms',
        note: `${note}; raw: the same picture's provider call, marking and files on bare BullMQ`,
      },
      { ...against(p(latencies, 95), p(rawLatencies, 95)), name: `submit → completed p95 at ${rate} jobs/s` },
      {
        ...against(p(latencies, 99), p(rawLatencies, 99), (ours, raw) => ours < 1.5 * raw),
        name: `submit → completed p99 at ${rate} jobs/s`,
        target: '< 1.5× raw',
      },
      lateOrLost,
      {
        part: 'e2e',
        name: `bare BullMQ round trip at ${rate} jobs/s (no-op job), p50 / p99`,
        value: p(bareLatencies, 50),
        unit: 'ms',
        note: `p99 ${p(bareLatencies, 99).toFixed(1)} ms: the queue alone, what neither side can go below`,
      },
      {
        part: 'e2e',
        name: `where the p50 goes at ${rate} jobs/s (stage medians, ms)`,
        value: stages.total,
        unit: 'ms',
        note: stages.describe,
      },
    ];
  } finally {
    ours?.close();
    await Promise.allSettled(raws.map((arm) => arm.stop()));
    await stack.stop();
  }
}

/**
 * Ours against the raw arm's same percentile. A raw percentile that never arrived (∞: raw fell behind
 * too) leaves nothing to compare with, so neither a ratio nor a verdict.
 */
function against(ours: number, raw: number, meets?: (ours: number, raw: number) => boolean) {
  const comparable = Number.isFinite(raw);
  return {
    part: 'e2e',
    value: ours,
    unit: 'ms',
    ceiling: raw,
    ...(comparable && { ratio: ours / raw }),
    ...(comparable && meets && { met: meets(ours, raw) }),
  };
}
