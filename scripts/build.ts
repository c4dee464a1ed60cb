/**
 * `pnpm build`: the production builds. Server, worker and queue CLI become an ES module each
 * (`<package>/dist/main.js`, with the chunks it imports later beside it), with the workspace's own
 * TypeScript packages bundled in and every npm dependency left to `node_modules`, so production runs plain
 * `node` without tsx. The client is built by Vite into `client/dist` (static files).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

const ENTRIES = [
  { pkg: 'server', entry: 'src/main.ts' },
  { pkg: 'worker', entry: 'src/main.ts' },
  { pkg: 'ops', entry: 'src/queues-cli.ts' },
] as const;

/**
 * Every npm dependency of the package and of the workspace packages it bundles stays external, so each
 * must be a dependency of the package itself too (the bundle resolves it from the package's node_modules).
 */
function externals(pkg: string): string[] {
  const names = new Set<string>();
  const visit = (dir: string) => {
    const manifest = JSON.parse(readFileSync(resolve(ROOT, dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
      if (version.startsWith('workspace:')) visit(name.replace('@mediagen/', ''));
      else names.add(name);
    }
  };
  visit(pkg);
  const missing = [...names].filter((name) => !existsSync(resolve(ROOT, pkg, 'node_modules', name)));
  if (missing.length > 0) {
    throw new Error(`${pkg} bundles code that needs ${missing.join(', ')}: add them to ${pkg}/package.json`);
  }
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

for (const { pkg, entry } of ENTRIES) {
  // Chunks are named by their content: an earlier build's would pile up beside the new ones.
  rmSync(resolve(ROOT, pkg, 'dist'), { recursive: true, force: true });
  await build({
    entryPoints: [resolve(ROOT, pkg, entry)],
    // What an entry imports dynamically stays a chunk of its own, loaded when asked for: the entry starts the
    // tracing SDK before it imports the application, whose npm imports the SDK must see load
    // (core/src/tracing/tracing-sdk.ts). One file would hoist every import above that start.
    outdir: resolve(ROOT, pkg, 'dist'),
    entryNames: 'main',
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    external: externals(pkg),
    logLevel: 'warning',
  });
  console.log(`built ${pkg}/dist/main.js`);
}

if (!process.argv.includes('--no-client')) {
  const client = spawnSync('pnpm', ['--filter', '@mediagen/client', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (client.status !== 0) process.exit(client.status ?? 1);
}
