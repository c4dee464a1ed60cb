import { now, percentile } from '../lib/env';
import { OursArm, RawArm } from '../lib/e2e-arms';
import { classifyUnheard, lateOrLostFigure } from '../lib/late-or-lost';
import { fmt, type Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import { stageMedians } from '../lib/stage-medians';
import type { BenchContext } from '../run';
import { E2E_USERS } from './e2e';

const RATES = (process.env.BENCH_CAPACITY_RATES ?? '2,5,10,15,20,30,40').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_CAPACITY_SECONDS ?? 8);
/** How long after a step's last submission its jobs may still arrive before they count as endless. */
const DRAIN_MS = Number(process.env.BENCH_CAPACITY_DRAIN_SECONDS ?? 15) * 1000;
/** The rate both arms sustain on two cores, where the overhead alone is read. */
const OVERHEAD_RATE = Number(process.env.BENCH_CAPACITY_OVERHEAD_RATE ?? 5);
/** Issue 35's target: our p50 within this of the raw arm's at the same rate. */
const MARGIN_MS = 10;
/** The raw arm has stopped keeping up once its p50 is this many times its p50 at the ladder's first rate. */
const RAW_SATURATED = 2;
/** BENCH_CAPACITY_FULL=1 runs every rate of the ladder, for a look past the first miss (capacity is unchanged). */
const FULL = process.env.BENCH_CAPACITY_FULL === '1';

type Verdict = 'within' | 'over' | 'raw saturated';

interface Step {
  rate: number;
  oursFirst: boolean;
  ours: number[];
  raw: number[];
  refused: number;
  /** Ours not heard at the socket within DRAIN_MS of the step's last submission. */
  unheard: number;
  /** Where our p50 went (stage medians, ms). */
  stages: string;
  verdict: Verdict;
  reason: string;
}

/**
 * Capacity: up a ladder of rates, submit → 'completed' at the owner's socket (the e2e part's measure)
 * against the raw arm doing the same picture work on bare BullMQ, at each rate in turn, one arm after
 * the other (which goes first alternates, so the machine's drift falls on both alike), until the first
 * rate where our p50 is more than MARGIN_MS over raw's or raw itself stops keeping up. On two cores the
 * marking (about 40 ms of CPU a picture) bounds both arms; what is ours is how far below that bound our
 * overhead shows.
 */
export async function capacityBench(context: BenchContext): Promise<Figure[]> {
  const stack = new BenchStack();
  let raw: RawArm | undefined;
  let ours: OursArm | undefined;
  try {
    await stack.simulator(0);
    ours = await OursArm.start(stack, context.emulatorHost, context.users.slice(0, E2E_USERS));
    raw = await RawArm.start(stack, 'image');
    // The first picture is rendered by the simulator and the first marking loads libvips: paid once, here.
    await ours.waitHeard((await ours.submit(5, 10)).sentAt.keys(), DRAIN_MS);
    await raw.roundTrips(5, 10, DRAIN_MS);

    const steps: Step[] = [];
    const unheard = new Map<string, { windowEnd: number; owner: number }>();
    let accepted = 0;
    for (const [index, rate] of RATES.entries()) {
      const jobs = Math.max(1, Math.round(rate * SECONDS));
      const [arm, rawArm] = [ours, raw];
      const runOurs = async () => {
        const { sentAt, ownerOf, refused } = await arm.submit(rate, jobs);
        const missing = await arm.waitHeard(sentAt.keys(), DRAIN_MS);
        const windowEnd = now();
        for (const id of missing) unheard.set(id, { windowEnd, owner: ownerOf.get(id)! });
        accepted += sentAt.size;
        const stages = await stageMedians(await stack.databaseUrl(), sentAt, arm.heard);
        return { ours: arm.latencies(sentAt), refused, unheard: missing.length, stages: stages.describe };
      };
      const runRaw = () => rawArm.roundTrips(rate, jobs, DRAIN_MS);
      const oursFirst = index % 2 === 0;
      const [measured, rawLatencies] = oursFirst
        ? [await runOurs(), await runRaw()]
        : await runRaw().then(async (rawFirst) => [await runOurs(), rawFirst] as const);
      const step = judge(rate, oursFirst, measured, rawLatencies, steps[0]?.raw ?? rawLatencies);
      steps.push(step);
      console.log(
        `capacity ${rate} jobs/s (${oursFirst ? 'ours first' : 'raw first'}): p50 ${fmt(percentile(step.ours, 50))} ms ` +
          `against raw ${fmt(percentile(step.raw, 50))} ms; ${step.verdict}${step.reason ? ` (${step.reason})` : ''}`,
      );
      if (step.verdict !== 'within' && !FULL) break;
    }
    const lateOrLost = await classifyUnheard(await stack.databaseUrl(), ours, accepted, unheard);
    return [
      ...summary(steps),
      ...steps.map(stepFigure),
      lateOrLostFigure('capacity', 'late or lost, all steps', lateOrLost),
    ];
  } finally {
    ours?.close();
    await raw?.stop();
    await stack.stop();
  }
}

function judge(
  rate: number,
  oursFirst: boolean,
  measured: Pick<Step, 'ours' | 'refused' | 'unheard' | 'stages'>,
  raw: number[],
  rawAtFirstRate: number[],
): Step {
  const step = { rate, oursFirst, raw, ...measured };
  const oursP50 = percentile(step.ours, 50);
  const rawP50 = percentile(raw, 50);
  const rawLimit = RAW_SATURATED * percentile(rawAtFirstRate, 50);
  const oursBehind = `${measured.unheard} not heard within ${DRAIN_MS / 1000} s of the step`;
  // An arm that left a backlog slows the one measured after it: the verdict is about the first arm.
  if (oursFirst && measured.unheard > 0) return { ...step, verdict: 'over', reason: oursBehind };
  if (raw.some((ms) => ms === Infinity)) {
    return { ...step, verdict: 'raw saturated', reason: 'raw jobs not done within the drain' };
  }
  if (rawP50 > rawLimit) {
    return {
      ...step,
      verdict: 'raw saturated',
      reason: `raw p50 over ${fmt(rawLimit)} ms, ${RAW_SATURATED}× its first rate's`,
    };
  }
  if (measured.unheard > 0) return { ...step, verdict: 'over', reason: oursBehind };
  if (oursP50 > rawP50 + MARGIN_MS) return { ...step, verdict: 'over', reason: `+${fmt(oursP50 - rawP50)} ms` };
  return { ...step, verdict: 'within', reason: '' };
}

function summary(steps: readonly Step[]): Figure[] {
  const p = (values: number[], q: number) => percentile(values, q);
  const firstMiss = steps.findIndex((step) => step.verdict !== 'within');
  const ladder = firstMiss === -1 ? steps : steps.slice(0, firstMiss + 1);
  const best = ladder.filter((step) => step.verdict === 'within').at(-1);
  const rawSustained = ladder.filter((step) => step.verdict !== 'raw saturated').at(-1)?.rate ?? 0;
  const last = ladder.at(-1);
  const stopped =
    last === undefined || last.verdict === 'within'
      ? `every rate of the ladder met (${RATES.join(', ')} jobs/s): add higher ones to BENCH_CAPACITY_RATES`
      : `stopped at ${last.rate} jobs/s: ${last.verdict === 'over' ? 'ours over' : 'raw saturated'}, ${last.reason}`;
  const atOverhead = steps.find((step) => step.rate === OVERHEAD_RATE);
  const overhead = (q: number): Figure => ({
    part: 'capacity',
    name: `overhead at ${OVERHEAD_RATE} jobs/s, p${q}: ours − raw`,
    value: atOverhead ? p(atOverhead.ours, q) - p(atOverhead.raw, q) : NaN,
    unit: 'ms',
    ...(q === 50 &&
      atOverhead && {
        target: `< ${MARGIN_MS} ms`,
        met: p(atOverhead.ours, 50) < p(atOverhead.raw, 50) + MARGIN_MS,
      }),
    note: atOverhead
      ? `ours ${fmt(p(atOverhead.ours, q))} ms against raw ${fmt(p(atOverhead.raw, q))} ms, same run`
      : `not measured: ${OVERHEAD_RATE} jobs/s is not on the ladder run (BENCH_CAPACITY_RATES)`,
  });
  return [
    {
      part: 'capacity',
      name: `capacity: highest rate with p50 < raw + ${MARGIN_MS} ms`,
      value: best?.rate ?? 0,
      unit: 'jobs/s',
      ceiling: rawSustained,
      ratio: rawSustained > 0 ? (best?.rate ?? 0) / rawSustained : undefined,
      target: "= the raw arm's (the machine's bound)",
      met: best !== undefined && best.rate >= rawSustained,
      note:
        (best
          ? `there: ours ${fmt(p(best.ours, 50))} ms against raw ${fmt(p(best.raw, 50))} ms (p50); `
          : 'no rate met; ') + `${stopped}; ${SECONDS} s a step`,
    },
    overhead(50),
    overhead(95),
  ];
}

function stepFigure(step: Step): Figure {
  const p50 = percentile(step.ours, 50);
  const rawP50 = percentile(step.raw, 50);
  return {
    part: 'capacity',
    name: `p50 at ${step.rate} jobs/s (${step.oursFirst ? 'ours, then raw' : 'raw, then ours'})`,
    value: p50,
    unit: 'ms',
    ceiling: rawP50,
    ratio: p50 / rawP50,
    target: `< raw + ${MARGIN_MS} ms`,
    met: step.verdict === 'within',
    note:
      `p95 ${fmt(percentile(step.ours, 95))} against ${fmt(percentile(step.raw, 95))} ms; ${step.ours.length} accepted, ` +
      `${step.refused} refused, ${step.unheard} not heard in the step${step.reason ? `; ${step.verdict}: ${step.reason}` : ''}; ` +
      `ours, stage medians (ms): ${step.stages}`,
  };
}
