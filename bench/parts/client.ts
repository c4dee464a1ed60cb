import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT } from '../lib/env';
import type { Figure } from '../lib/report';
import type { BenchContext } from '../run';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
};

/** Gzipped JS that Chromium actually loads for the landing page and the dashboard, from a development-mode build. */
export async function clientBench(_context: BenchContext): Promise<Figure[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'mediagen-bench-client-'));
  const build = spawnSync(
    join(ROOT, 'client/node_modules/.bin/vite'),
    ['build', '--mode', 'development', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: join(ROOT, 'client'),
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`client build failed:\n${build.stderr}`);
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    let file = join(outDir, path);
    if (!file.startsWith(outDir) || !existsSync(file) || path === '/') file = join(outDir, 'index.html');
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const figures: Figure[] = [];
  try {
    for (const [name, path, target] of [
      ['landing /', '/', 120],
      ['dashboard /dashboard', '/dashboard', undefined],
    ] as const) {
      const page = await browser.newPage();
      const scripts = new Map<string, number>();
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        void response.body().then(
          (body) => scripts.set(response.url(), gzipSync(body, { level: 9 }).length),
          () => undefined,
        );
      });
      await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(500);
      const kb = [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0) / 1024;
      const biggest = [...scripts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([url, bytes]) => `${url.split('/').pop()} ${(bytes / 1024).toFixed(1)}`);
      figures.push({
        part: 'client',
        name: `gzipped JS loaded by ${name}`,
        value: kb,
        unit: 'KB',
        ...(target === undefined ? {} : { ratio: kb / target, target: `< ${target} KB`, met: kb < target }),
        note: `${scripts.size} scripts; largest: ${biggest.join(', ')}; landed on ${new URL(page.url()).pathname}`,
      });
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
  return figures;
}
