import { createSimulator, type Simulator, type SimulatorOptions } from '@mediagen/simulator';
import type { GenerationWorkers } from '@mediagen/worker';
import { createTestContext, type TestApp, type TestContext } from './app';
import { startTestWorkers } from './workers';

export interface TestPipeline {
  context: TestContext;
  server: TestApp;
  simulator: Simulator;
  workers: GenerationWorkers;
  /** Workers first (they let go of their jobs), then the app, database, keys and files, then the simulator. */
  close(): Promise<void>;
}

/**
 * The whole pipeline in this process: the provider simulator, an app on its own database and prefix, and
 * real workers calling the simulator. `server` and `workers` add or override settings.
 */
export async function startTestPipeline(
  options: { simulator?: SimulatorOptions; server?: Record<string, string>; workers?: Record<string, string> } = {},
): Promise<TestPipeline> {
  const simulator = createSimulator(options.simulator ?? { latencyMs: 0 });
  await simulator.listen();
  const context = await createTestContext();
  const server = await context.start(options.server);
  const workers = await startTestWorkers(context, simulator, options.workers);
  return {
    context,
    server,
    simulator,
    workers,
    async close() {
      await workers.close(1000);
      await context.cleanup();
      await simulator.close();
    },
  };
}
