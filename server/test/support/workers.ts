import type { Simulator } from '@mediagen/simulator';
import { loadWorkerConfig, startGenerationWorkers, type GenerationWorkers } from '@mediagen/worker';
import { REDIS_URL, type TestContext } from './app';

/**
 * Real generation workers in this process, on the context's key prefix and data dir, calling the
 * simulator; video polls every 60 ms. `env` adds or overrides worker settings.
 */
export function startTestWorkers(
  context: TestContext,
  simulator: Simulator,
  env: Record<string, string> = {},
): Promise<GenerationWorkers> {
  return startGenerationWorkers(
    loadWorkerConfig({
      MEDIAGEN_MODE: 'development',
      DATABASE_URL: context.database.url,
      REDIS_URL,
      QUEUE_PREFIX: context.prefix,
      DATA_DIR: context.dataDir,
      SIMULATOR_URL: simulator.url,
      VIDEO_POLL_INTERVAL_MS: '60',
      ...env,
    }),
  );
}
