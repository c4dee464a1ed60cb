/**
 * Vitest global setup: the production bundles (`pnpm build`'s server, worker and queue CLI), built once per
 * run by the first project that asks. The processes tests start run them with plain node, as a deployment
 * does: none compiles TypeScript as it starts (a CPU-second or more each, many times a run), and no test
 * file builds them itself (files run side by side).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
/** Set once built: the next project's setup in the same run finds it and builds nothing. */
const BUILT = 'MEDIAGEN_TEST_BUNDLES_BUILT';

export function setup(): void {
  if (process.env[BUILT] === '1') return;
  const build = spawnSync(resolve(ROOT, 'node_modules/.bin/tsx'), ['scripts/build.ts', '--no-client'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`pnpm build failed:\n${build.stdout}\n${build.stderr}`);
  process.env[BUILT] = '1';
}
