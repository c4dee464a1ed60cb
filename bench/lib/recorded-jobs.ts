import { DEFAULT_PLAN_RULES } from '@mediagen/shared';
import { randomInt } from 'node:crypto';
import { GenerationLifecycle, generationJobOptions, newGenerationId, openDatabase } from '@mediagen/core';
import type { GenerationJobData } from '@mediagen/core';

export interface ImageJobRequest {
  prompt: string;
  width: number;
  height: number;
  /** One seed for all: the simulator serves its cached render; absent: a random seed per job. */
  seed?: number;
}

/**
 * Image generations submitted straight to the record (one bench user each, so none runs out of tokens)
 * and the BullMQ jobs that carry them, for parts that measure workers without the API in front. Workers
 * read each job's request from the record, so a job added without its generation would be dropped.
 */
export async function recordedImageJobs(databaseUrl: string, count: number, request: ImageJobRequest) {
  const database = openDatabase(databaseUrl, { maxConnections: 8 });
  const lifecycle = new GenerationLifecycle(database.db);
  const run = Date.now().toString(36);
  try {
    const ids = await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const id = newGenerationId('image');
        const outcome = await lifecycle.submit({
          id,
          uid: `bench-${run}-${index}`,
          kind: 'image',
          request: { ...request, seed: request.seed ?? randomInt(1000) },
          prompt: request.prompt,
          maxInFlight: 1,
        });
        if (outcome.status !== 'accepted') throw new Error(`bench submission refused: ${outcome.status}`);
        return id;
      }),
    );
    return ids.map((id) => ({
      name: 'image',
      data: { kind: 'image' } satisfies GenerationJobData,
      opts: generationJobOptions(
        id,
        { attempts: 1, backoffMs: 0 },
        { completedSeconds: 3600, failedSeconds: 3600 },
        DEFAULT_PLAN_RULES.free.queuePriority,
      ),
    }));
  } finally {
    await database.close();
  }
}
