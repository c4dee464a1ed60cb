import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The shipped alerting rules (docs/alerts) are valid Prometheus rules, behave as their unit tests say
 * (each alert fires when it should, and not before), and only name metrics the code registers.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const ALERTS = resolve(ROOT, 'docs/alerts');
const run = promisify(execFile);

async function promtool(args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run('promtool', args, { cwd: ALERTS });
    return stdout + stderr;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new Error('promtool is missing: apt-get install -y prometheus (.ci/run installs it)', { cause: error });
    }
    throw new Error(`promtool ${args.join(' ')} failed:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`, {
      cause: error,
    });
  }
}

describe('alerting rules', () => {
  it('pass promtool check rules', async () => {
    expect(await promtool(['check', 'rules', 'mediagen-rules.yml'])).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('pass their unit tests (promtool test rules)', async () => {
    expect(await promtool(['test', 'rules', 'mediagen-rules.test.yml'])).toMatch(/SUCCESS/);
  });

  it('only use metrics the server and the worker register', () => {
    const rules = readFileSync(resolve(ALERTS, 'mediagen-rules.yml'), 'utf8');
    const registered = ['server/src/metrics/server-metrics.ts', 'worker/src/observability/worker-metrics.ts'].flatMap(
      (file) =>
        [...readFileSync(resolve(ROOT, file), 'utf8').matchAll(/name: '(mediagen_[a-z_]+)'/g)].map(
          (match) => match[1]!,
        ),
    );
    // Histograms are scraped as _bucket, _sum and _count series.
    const used = [
      ...new Set([...rules.matchAll(/\b(mediagen_[a-z_]+)/g)].map((match) => match[1]!.replace(/_bucket$/, ''))),
    ];
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((name) => !registered.includes(name))).toEqual([]);
  });
});
