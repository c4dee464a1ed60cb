import { Worker } from 'bullmq';
import {
  GenerationLifecycle,
  connectRedis,
  createArtifactStore,
  openDatabase,
  queueName,
  type GenerationJobData,
} from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import { REDIS_URL, type TestContext } from './app';

/**
 * A stand-in for worker/ that completes every job of a kind with the given bytes, through the same
 * lifecycle transitions as the real one: for tests of what the API does with results. `settings` are
 * overrides of the test config, such as another artifact store.
 */
export async function startStandInWorker(
  context: TestContext,
  kind: GenerationKind,
  result: { bytes: Uint8Array; mimeType: string },
  settings: Record<string, string> = {},
): Promise<{ close(): Promise<void> }> {
  const database = openDatabase(context.database.url, { maxConnections: 2 });
  const lifecycle = new GenerationLifecycle(database.db);
  const store = await createArtifactStore(context.config(settings).artifactStore);
  const connection = await connectRedis(REDIS_URL, 'blocking');
  const worker = new Worker<GenerationJobData>(
    queueName(kind),
    async (job) => {
      if (!(await lifecycle.start(job.id!)).ok) return;
      const artifact = await store.save(job.id!, result.bytes, result.mimeType);
      if (!(await lifecycle.complete(job.id!, artifact)).ok) await store.remove(artifact.key);
    },
    { connection, prefix: context.prefix },
  );
  return {
    async close() {
      await worker.close();
      connection.disconnect();
      await database.close();
    },
  };
}
