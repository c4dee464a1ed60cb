import { WorkerConfigError, loadWorkerConfig } from './config';
import { startGenerationWorkers } from './generation-workers';

function describeProviders(config: ReturnType<typeof loadWorkerConfig>): string {
  return (['stability', 'minimax', 'openai'] as const)
    .map((name) => `${name}: ${config[name].simulated ? `simulator at ${config[name].baseUrl}` : config[name].baseUrl}`)
    .join(', ');
}

async function main(): Promise<void> {
  const config = loadWorkerConfig(process.env);
  const pool = await startGenerationWorkers(config);
  console.log(
    `[worker] running ${config.kinds.map((kind) => `${kind}×${config.concurrency[kind]}`).join(', ')}; ${describeProviders(config)}`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker] ${signal}: finishing active jobs (up to ${config.shutdownGraceMs} ms)`);
    pool.close().then(
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

main().catch((error: unknown) => {
  console.error(error instanceof WorkerConfigError ? error.message : error);
  process.exit(1);
});
