import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { CancellationRegistry, QuotaLedger, connectRedis, queueName } from '@mediagen/core';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';

const envSchema = z.object({
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z.string().min(1).default('mediagen'),
});

export interface OpsSettings {
  redisUrl: string;
  prefix: string;
}

export class OpsConfigError extends Error {
  override readonly name = 'OpsConfigError';
}

export function loadOpsSettings(env: NodeJS.ProcessEnv): OpsSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new OpsConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'),
    );
  }
  return { redisUrl: parsed.data.REDIS_URL, prefix: parsed.data.QUEUE_PREFIX };
}

/** What every command works with: the same queues, ledger and cancel flags as server and worker. */
export interface OpsContext {
  redis: Redis;
  prefix: string;
  queues: Record<GenerationKind, Queue>;
  ledger: QuotaLedger;
  cancellations: CancellationRegistry;
  close(): Promise<void>;
}

export async function openOpsContext(settings: OpsSettings): Promise<OpsContext> {
  // A producer connection: an operator wants an error now, not a command queued until Redis returns.
  const redis = await connectRedis(settings.redisUrl, 'producer', 'queues-cli');
  const queues = Object.fromEntries(
    GENERATION_KINDS.map((kind) => [kind, new Queue(queueName(kind), { connection: redis, prefix: settings.prefix })]),
  ) as Record<GenerationKind, Queue>;
  return {
    redis,
    prefix: settings.prefix,
    queues,
    ledger: new QuotaLedger(redis, settings.prefix),
    cancellations: new CancellationRegistry(redis, settings.prefix),
    async close() {
      await Promise.all(Object.values(queues).map((queue) => queue.close()));
      await redis.quit().catch(() => undefined);
    },
  };
}
