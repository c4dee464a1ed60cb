/**
 * `pnpm docs:check`: the repository's Markdown stands alone. Every relative link names a file or folder
 * of the repository, no document cites the design document it no longer holds (docs/ARCHITECTURE.md is
 * the map), and none names a path of the machine it was written on. Part of `pnpm check`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED = new Set(['node_modules', '.git', 'dist', '.data', 'test-results', 'results']);
/** A folder of one machine, not of the project: `/work/…`, `/root/…`, `/home/…`, `/Users/…`, `/tmp/…`. */
const MACHINE_PATH = /(?<![\w.~-])\/(?:work|root|home|Users|tmp)\/[\w.-]/;
const DESIGN_DOCUMENT = /\bDESIGN\.md\b/;
/** `[text](target)`, the target without its `#anchor` or title. */
const LINK = /\]\(([^)\s#]+)(?:#[^)\s]*)?(?:\s+"[^"]*")?\)/g;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const problems: string[] = [];
for (const file of markdownFiles(ROOT)) {
  const name = relative(ROOT, file);
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    const where = `${name}:${index + 1}`;
    if (MACHINE_PATH.test(line)) problems.push(`${where}: a machine path (${MACHINE_PATH.exec(line)?.[0]}…)`);
    if (DESIGN_DOCUMENT.test(line)) problems.push(`${where}: cites DESIGN.md, which the repository does not hold`);
    for (const [, target] of line.matchAll(LINK)) {
      if (target === undefined || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const path = resolve(dirname(file), decodeURI(target));
      if (!path.startsWith(ROOT)) problems.push(`${where}: links outside the repository (${target})`);
      else if (!existsSync(path)) problems.push(`${where}: links to a missing file (${target})`);
    }
  });
}

if (problems.length > 0) {
  console.error(`docs:check found ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('docs:check: every link resolves inside the repository; no machine path, no DESIGN.md');
