import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMetricsServer, type GenerationWorkers, type MetricsServer } from '../src';
import { WorkerHarness, imageRequest, speechRequest } from './support/harness';

const harness = new WorkerHarness();
let pool: GenerationWorkers;
let server: MetricsServer;

beforeAll(async () => {
  await harness.start();
  pool = await harness.startWorkers({ kinds: ['image', 'speech'] });
  server = await startMetricsServer({
    registry: pool.metrics.registry,
    port: 0,
    host: '127.0.0.1',
    isHealthy: pool.healthy,
  });
});
afterAll(async () => {
  await server.close();
  await harness.stop();
});

async function scrape(): Promise<string> {
  const response = await fetch(`${server.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

it('serves /healthz while the workers run', async () => {
  const response = await fetch(`${server.url}/healthz`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok' });
  expect((await fetch(`${server.url}/nope`)).status).toBe(404);
});

it('exposes every worker series on /metrics, and they move with the work', async () => {
  const before = await scrape();
  for (const provider of ['stability', 'minimax', 'openai']) {
    expect(sample(before, `mediagen_worker_circuit_breaker_state{provider="${provider}"}`)).toBe(0);
  }
  expect(sample(before, 'mediagen_worker_active_jobs{kind="image"}')).toBe(0);
  expect(before).toContain('process_cpu_user_seconds_total');
  expect(before).toContain('nodejs_eventloop_lag_seconds');

  harness.simulator.injectFault({ route: 'image', fault: 'http500', times: 1 });
  const image = await harness.submit('image', imageRequest());
  const refused = await harness.submit('speech', { ...speechRequest(), voice: 'robot' as never });
  expect((await harness.settled('image', image.job)).state).toBe('completed');
  expect((await harness.settled('speech', refused.job)).state).toBe('failed');

  const after = await scrape();
  const call = (provider: string, name: string, outcome: string) =>
    sample(after, `mediagen_worker_provider_calls_total{provider="${provider}",call="${name}",outcome="${outcome}"}`);
  expect(call('stability', 'text_to_image', 'http_5xx')).toBe(1);
  expect(call('stability', 'text_to_image', 'ok')).toBe(1);
  expect(call('openai', 'speech', 'http_4xx')).toBe(1);
  expect(
    sample(after, 'mediagen_worker_provider_call_duration_seconds_count{provider="stability",call="text_to_image"}'),
  ).toBe(2);
  expect(sample(after, 'mediagen_worker_job_retries_total{kind="image"}')).toBe(1);
  expect(sample(after, 'mediagen_worker_jobs_completed_total{kind="image"}')).toBe(1);
  expect(
    sample(after, 'mediagen_worker_jobs_failed_total{kind="speech",code="SPEECH_FAILED",outcome="http_4xx"}'),
  ).toBe(1);
  expect(sample(after, 'mediagen_worker_refunds_total{kind="speech"}')).toBe(1);
  expect(sample(after, 'mediagen_worker_active_jobs{kind="image"}')).toBe(0);
});

it('with METRICS_TOKEN, serves /metrics only to a scraper that presents it; /healthz stays open', async () => {
  const guarded = await startMetricsServer({
    registry: pool.metrics.registry,
    port: 0,
    token: 'scrape-token-0123456789',
    isHealthy: pool.healthy,
  });
  try {
    // The default listen address is loopback.
    expect(guarded.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', 'scrape-token-0123456789']) {
      const response = await fetch(`${guarded.url}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain('mediagen_worker');
    }
    const scraped = await fetch(`${guarded.url}/metrics`, {
      headers: { authorization: 'Bearer scrape-token-0123456789' },
    });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('mediagen_worker_active_jobs');
    expect((await fetch(`${guarded.url}/healthz`)).status).toBe(200);
  } finally {
    await guarded.close();
  }
});
