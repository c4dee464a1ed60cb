import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium, type Browser } from 'playwright-core';
import { generate as selfSignedCertificate } from 'selfsigned';
import { CHROMIUM_PATH, HEADLESS_CHROMIUM_ARGS } from '@mediagen/testing';
import { ROOT } from '../lib/env';
import type { Figure } from '../lib/report';
import type { BenchContext } from '../run';

/** /proc counts CPU time in these (`getconf CLK_TCK`; 100 on every Linux this runs on). */
const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
};

const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** The pages a visitor lands on, signed out: the landing page, the dashboard and the library. */
const LIGHTHOUSE_PAGES = ['/', '/dashboard', '/library'] as const;
/** Where to keep each page's whole Lighthouse report (JSON), to read what lost a point; none kept by default. */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;
const PERFORMANCE_METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;

/**
 * Gzipped JS that Chromium actually loads for the landing page and the dashboard, and Lighthouse's four
 * scores for the landing page, the dashboard and the library on a phone and a desktop, all from one
 * production build made with the local Firebase settings (client/.env.development), as a deployment
 * would build it with its own.
 */
export async function clientBench(_context: BenchContext): Promise<Figure[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'mediagen-bench-client-'));
  // Production mode, not development: the latter also picks libraries' development builds (react-router's).
  const build = spawnSync(
    join(ROOT, 'client/node_modules/.bin/vite'),
    ['build', '--mode', 'production', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: join(ROOT, 'client'),
      encoding: 'utf8',
      env: { ...process.env, ...localClientSettings() },
    },
  );
  if (build.status !== 0) throw new Error(`client build failed:\n${build.stderr}`);
  // Served as docker/nginx.conf serves it (gzip, hashed assets cached for good, the SPA's routes from
  // index.html), and as visitors get it through the HTTPS load balancer in front (docs/OPERATING.md):
  // over TLS with HTTP/2, so a page's chunks share one connection. The certificate is a throwaway one.
  const certificate = await selfSignedCertificate([{ name: 'commonName', value: '127.0.0.1' }], {
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const server = createSecureServer({ key: certificate.private, cert: certificate.cert }, (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    let file = join(outDir, path);
    if (!file.startsWith(outDir) || !existsSync(file) || path === '/') file = join(outDir, 'index.html');
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    const body = readFileSync(file);
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(gzip ? gzipSync(body, { level: 6 }) : body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const origin = `https://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...HEADLESS_CHROMIUM_ARGS] });
  const figures: Figure[] = [];
  try {
    for (const [name, path, target] of [
      ['landing /', '/', 100],
      ['dashboard /dashboard', '/dashboard', undefined],
      ['library /library', '/library', undefined],
    ] as const) {
      const page = await browser.newPage({ ignoreHTTPSErrors: true });
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
        ...(target === undefined ? {} : { ratio: kb / target, target: `≤ ${target} KB`, met: kb <= target }),
        note: `${scripts.size} scripts; largest: ${biggest.join(', ')}; landed on ${new URL(page.url()).pathname}`,
      });
      await page.close();
    }
    figures.push(...(await waitingCost(browser, origin)));
    // Lighthouse drives a Chromium of its own; this one is done.
    await browser.close();
    figures.push(...(await lighthouseScores(origin)));
  } finally {
    await browser.close().catch(() => undefined);
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
  return figures;
}

/** The spinner GenerateButton shows while a generation runs (its classes are in the build's CSS). */
const SPINNER_CLASSES = 'size-4 animate-spin rounded-full border-2 border-white border-t-transparent';
const WAITING_SECONDS = 10;
const WAITING_SCENES = [
  { name: 'a panel of the dashboard', button: 'main button:has-text("Generate Image")', openDialog: false },
  { name: 'the sign-in dialog', button: '[role="dialog"] button[type="submit"]', openDialog: true },
] as const;

/**
 * What the browser spends while a creator waits with a spinner turning, where the app shows one: in a
 * panel of the dashboard (over its blurred colour fields) and in a dialog (over its dimmed backdrop).
 * Every Chromium process on the host counts (this bench's browser is the only one running meanwhile); the
 * browser renders in software, as a laptop without a usable GPU does, so paint costs show in full.
 */
async function waitingCost(browser: Browser, origin: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const scene of WAITING_SCENES) {
    const page = await browser.newPage({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
    await page.goto(`${origin}/dashboard`, { waitUntil: 'networkidle' });
    // Signed out, Generate opens the sign-in dialog (spec §2).
    if (scene.openDialog) await page.locator(WAITING_SCENES[0].button).click();
    await page
      .locator(scene.button)
      .evaluate(
        (button, classes) => button.insertAdjacentHTML('afterbegin', `<span class="${classes}"></span>`),
        SPINNER_CLASSES,
      );
    await page.waitForTimeout(1000);
    const before = chromiumCpuSeconds();
    await page.waitForTimeout(WAITING_SECONDS * 1000);
    const share = (chromiumCpuSeconds() - before) / WAITING_SECONDS;
    figures.push({
      part: 'client',
      name: `browser CPU while a spinner turns in ${scene.name}`,
      value: share * 100,
      unit: '% of a core',
      note: `every Chromium process, over ${WAITING_SECONDS} s, software rendering`,
    });
    await page.close();
  }
  return figures;
}

/** CPU time (user and system) of every Chromium process on the host so far, in seconds, from /proc. */
function chromiumCpuSeconds(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** The VITE_ settings of client/.env.development: the demo Firebase project and the local emulator. */
function localClientSettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(join(ROOT, 'client/.env.development'), 'utf8').split('\n')) {
    const match = /^(VITE_\w+)=(.*)$/.exec(line.trim());
    if (match !== null) settings[match[1]!] = match[2]!;
  }
  return settings;
}

/** Lighthouse's scores (0–100) per page and form factor; the target is 100 in every category. */
async function lighthouseScores(origin: string): Promise<Figure[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    // The throwaway certificate is nobody's: Chromium is told to accept it.
    chromeFlags: ['--headless=new', '--ignore-certificate-errors', ...HEADLESS_CHROMIUM_ARGS],
  });
  const figures: Figure[] = [];
  try {
    for (const formFactor of ['mobile', 'desktop'] as const) {
      for (const path of LIGHTHOUSE_PAGES) {
        const result = await lighthouse(
          `${origin}${path}`,
          { port: chrome.port, logLevel: 'error', onlyCategories: [...LIGHTHOUSE_CATEGORIES] },
          formFactor === 'desktop' ? desktopConfig : undefined,
        );
        if (result === undefined) throw new Error(`Lighthouse gave no result for ${path}`);
        if (REPORTS_DIR !== undefined) {
          mkdirSync(REPORTS_DIR, { recursive: true });
          const page = path === '/' ? 'landing' : path.slice(1);
          writeFileSync(join(REPORTS_DIR, `${page}-${formFactor}.json`), JSON.stringify(result.lhr, null, 1));
        }
        const scores = LIGHTHOUSE_CATEGORIES.map((category) =>
          Math.round((result.lhr.categories[category]?.score ?? 0) * 100),
        );
        const failing = Object.values(result.lhr.audits)
          .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
          .map((audit) => audit.id);
        // The timings behind a performance score under 100, as Lighthouse shows them.
        const slow = PERFORMANCE_METRICS.map((id) => result.lhr.audits[id])
          .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
          .map((audit) => `${audit!.id} ${audit!.displayValue ?? ''}`.trim());
        figures.push({
          part: 'client',
          name: `Lighthouse ${path} (${formFactor}): performance / accessibility / best practices / SEO`,
          value: Math.min(...scores),
          unit: 'lowest score',
          target: '100 in all four',
          met: scores.every((score) => score === 100),
          note:
            `${scores.join(' / ')}${failing.length > 0 ? `; failing: ${failing.join(', ')}` : ''}` +
            (slow.length > 0 ? `; short of full marks: ${slow.join(', ')}` : ''),
        });
      }
    }
  } finally {
    chrome.kill();
  }
  return figures;
}
