/**
 * Vitest global setup of the fault suite: the production bundles (`pnpm build`'s server and worker), made
 * once before any file runs. Every process a fault test starts runs them with plain node, as a deployment
 * does: no file builds them itself (files run side by side), and no process compiles TypeScript at start.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes';

export default function buildBundles(): void {
  const build = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/build.ts', '--no-client'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`pnpm build failed:\n${build.stdout}\n${build.stderr}`);
}
