import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  EnvReader,
  GenerationLifecycle,
  connectRedis,
  openDatabase,
  queueName,
  SpendControls,
  SpendLedger,
  readCommonSettings,
  readMaxInFlightPerUser,
  type CommonSettings,
  type Env,
  type GenerationJobData,
  type RecordDatabase,
} from '@mediagen/core';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';

export { ConfigError as OpsConfigError } from '@mediagen/core';

export interface OpsSettings extends Pick<
  CommonSettings,
  'databaseUrl' | 'redis' | 'queuePrefix' | 'jobs' | 'jobRetention' | 'plans'
> {
  /** MAX_IN_FLIGHT_PER_USER, as the API has it: a retry keeps to it as a submission does. */
  maxInFlightPerUser: number;
}

/** The same shared settings, with the same rules, as the server and the worker. */
export function loadOpsSettings(env: Env): OpsSettings {
  const reader = new EnvReader(env);
  const common = readCommonSettings(reader);
  const maxInFlightPerUser = readMaxInFlightPerUser(reader);
  reader.finish('queue CLI');
  return { ...common, maxInFlightPerUser };
}

/** What every command works with: the same record, lifecycle and queues as server and worker. */
export interface OpsContext {
  settings: OpsSettings;
  redis: Redis;
  database: RecordDatabase;
  lifecycle: GenerationLifecycle;
  spend: { ledger: SpendLedger; controls: SpendControls };
  queues: Record<GenerationKind, Queue<GenerationJobData>>;
  close(): Promise<void>;
}

export async function openOpsContext(settings: OpsSettings): Promise<OpsContext> {
  const database = openDatabase(settings.databaseUrl, { maxConnections: 2, applicationName: 'mediagen-queues-cli' });
  // A producer connection: an operator wants an error now, not a command queued until Redis returns.
  const redis = await connectRedis(settings.redis, 'producer', 'queues-cli').catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const ledger = new SpendLedger(database.db);
  const queues = Object.fromEntries(
    GENERATION_KINDS.map((kind) => [
      kind,
      new Queue<GenerationJobData>(queueName(kind), { connection: redis, prefix: settings.queuePrefix }),
    ]),
  ) as Record<GenerationKind, Queue<GenerationJobData>>;
  return {
    settings,
    redis,
    database,
    lifecycle: new GenerationLifecycle(database.db, { plans: settings.plans }),
    spend: { ledger, controls: new SpendControls(database.db, redis, settings.queuePrefix, ledger) },
    queues,
    async close() {
      await Promise.all(Object.values(queues).map((queue) => queue.close()));
      await redis.quit().catch(() => undefined);
      await database.close();
    },
  };
}
