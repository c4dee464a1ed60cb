/**
 * `pnpm bench [enqueue|e2e|capacity|progress|memory|scale|ratelimit|client|webhooks|tracing ...]`: every figure against its ceiling measured
 * in the same run, on the same Redis, each part on its own key prefix (removed afterwards).
 * Results are printed as a table and written to bench/results/latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/env';
import { table, type Figure } from './lib/report';
import { createUsers, startEmulator, stopEmulator, type BenchUser } from './lib/users';
import { capacityBench } from './parts/capacity';
import { clientBench } from './parts/client';
import { e2eBench } from './parts/e2e';
import { enqueueBench } from './parts/enqueue';
import { lifecycleBench } from './parts/lifecycle';
import { markingBench } from './parts/marking';
import { memoryBench } from './parts/memory';
import { priorityBench } from './parts/priority';
import { progressBench } from './parts/progress';
import { rateLimitBench } from './parts/ratelimit';
import { scaleBench } from './parts/scale';
import { tracingBench } from './parts/tracing';
import { webhooksBench } from './parts/webhooks';

export interface BenchContext {
  emulatorHost: string;
  users: BenchUser[];
}

const PARTS = {
  enqueue: enqueueBench,
  lifecycle: lifecycleBench,
  e2e: e2eBench,
  capacity: capacityBench,
  progress: progressBench,
  memory: memoryBench,
  scale: scaleBench,
  ratelimit: rateLimitBench,
  priority: priorityBench,
  marking: markingBench,
  client: clientBench,
  webhooks: webhooksBench,
  tracing: tracingBench,
};
type PartName = keyof typeof PARTS;
const NEEDS_USERS: readonly PartName[] = [
  'enqueue',
  'e2e',
  'capacity',
  'progress',
  'memory',
  'priority',
  'scale',
  'webhooks',
  'tracing',
];

const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = requested.filter((name) => !(name in PARTS));
if (unknown.length > 0) {
  console.error(`unknown part(s): ${unknown.join(', ')}; choose from ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const parts = (requested.length > 0 ? requested : Object.keys(PARTS)) as PartName[];

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`;
console.log(`mediagen bench: ${parts.join(', ')} on ${machine}`);
const context: BenchContext = { emulatorHost: '', users: [] };
if (parts.some((part) => NEEDS_USERS.includes(part))) {
  context.emulatorHost = await startEmulator();
  const started = Date.now();
  context.users = await createUsers(context.emulatorHost, Number(process.env.BENCH_USERS ?? 2000));
  console.log(`${context.users.length} emulator users in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const figures: Figure[] = [];
const failures: string[] = [];
for (const part of parts) {
  const started = Date.now();
  try {
    const result = await PARTS[part](context);
    figures.push(...result);
    console.log(`\n${part} (${((Date.now() - started) / 1000).toFixed(0)} s)\n${table(result)}`);
  } catch (error) {
    failures.push(`${part}: ${error instanceof Error ? error.stack : String(error)}`);
    console.error(`\n${part} FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}
await stopEmulator();

console.log(`\nall figures\n${table(figures)}`);
const dir = join(ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, 'latest.json'),
  JSON.stringify(
    { date: new Date().toISOString(), machine, command: `pnpm bench ${requested.join(' ')}`.trim(), figures, failures },
    null,
    2,
  ),
);
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
process.exit(0);
