import { describeTracing } from '@mediagen/core';
import type { TracingHandle } from '@mediagen/core/tracing-sdk';
import { WorkerConfigError, loadWorkerConfig } from './config';
import { startGenerationWorkers } from './generation-workers';
import { startMetricsServer, type MetricsServer } from './observability/metrics-server';

function describeProviders(config: ReturnType<typeof loadWorkerConfig>): string {
  return (['stability', 'minimax', 'openai'] as const)
    .map((name) => `${name}: ${config[name].simulated ? `simulator at ${config[name].baseUrl}` : config[name].baseUrl}`)
    .join(', ');
}

async function main(tracing: TracingHandle): Promise<void> {
  const config = loadWorkerConfig(process.env);
  const pool = await startGenerationWorkers(config);
  let metricsServer: MetricsServer | undefined;
  if (config.metrics !== null) {
    // A busy port (a second worker on the same host, a dev stack beside a test stack) must not stop
    // the worker from working: it runs without an endpoint and says so.
    metricsServer = await startMetricsServer({
      registry: pool.metrics.registry,
      port: config.metrics.port,
      host: config.metrics.host,
      token: config.metrics.token,
      isHealthy: pool.healthy,
    }).catch((error: unknown) => {
      console.error(
        `[worker] metrics endpoint off: cannot listen on ${config.metrics!.host}:${config.metrics!.port} ` +
          `(${error instanceof Error ? error.message : String(error)}); set WORKER_METRICS_PORT to a free port, or 0`,
      );
      return undefined;
    });
  }
  if (config.mode === 'development') console.warn('[worker] MEDIAGEN_MODE=development: development shortcuts are on');
  for (const notice of config.notices) console.warn(`[worker] ${notice}`);
  console.log(
    `[worker] ${config.workerName} running ${config.kinds.map((kind) => `${kind}×${config.concurrency[kind]}`).join(', ')}; ${describeProviders(config)}` +
      (metricsServer === undefined ? '' : `; metrics at ${metricsServer.url}/metrics`) +
      (tracing.settings === null ? '' : `; ${describeTracing(tracing.settings)}`),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(
      `[worker] ${signal}: finishing active jobs (up to ${config.shutdownGraceMs} ms, then handing them back)`,
    );
    // /healthz answers 503 from here on, while /metrics stays up until the last job is settled.
    pool
      .close()
      .then(() => metricsServer?.close())
      .then(() => tracing.shutdown())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('[worker] shutdown failed', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** The worker process: config, the workers, the metrics endpoint, graceful shutdown (the entry is main.ts). */
export function runWorker(tracing: TracingHandle): Promise<void> {
  return main(tracing).catch((error: unknown) => {
    console.error(error instanceof WorkerConfigError ? error.message : error);
    process.exit(1);
  });
}
