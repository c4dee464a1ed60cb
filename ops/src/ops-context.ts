import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  EnvReader,
  GenerationJobOwner,
  GenerationLifecycle,
  GenerationReads,
  connectRedis,
  createArtifactStore,
  openDatabase,
  SpendControls,
  SpendLedger,
  SalesRequests,
  SupportRequests,
  createSupportMailer,
  readCommonSettings,
  readMaxInFlightPerUser,
  readSupportMailSettings,
  type CommonSettings,
  type Env,
  type GenerationJobData,
  type RecordDatabase,
  type SupportMailSettings,
  type SupportMailer,
} from '@mediagen/core';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';

export { ConfigError as OpsConfigError } from '@mediagen/core';

export interface OpsSettings extends Pick<
  CommonSettings,
  'databaseUrl' | 'redis' | 'queuePrefix' | 'jobs' | 'jobRetention' | 'plans' | 'artifactStore'
> {
  /** MAX_IN_FLIGHT_PER_USER, as the API has it: a retry keeps to it as a submission does. */
  maxInFlightPerUser: number;
  /**
   * SMTP_URL, as the server has it, for `support answer`. Unlike the server, the CLI starts without it in
   * production (most of its commands send no mail); only a reply is then refused.
   */
  supportMail: SupportMailSettings;
}

/** The same shared settings, with the same rules, as the server and the worker. */
export function loadOpsSettings(env: Env): OpsSettings {
  const reader = new EnvReader(env);
  const common = readCommonSettings(reader);
  const maxInFlightPerUser = readMaxInFlightPerUser(reader);
  const supportMail = readSupportMailSettings(reader, common.mode, { requiredInProduction: false });
  reader.finish('queue CLI');
  return { ...common, maxInFlightPerUser, supportMail };
}

/** What every command works with: the same record, lifecycle and queues as server and worker. */
export interface OpsContext {
  settings: OpsSettings;
  redis: Redis;
  database: RecordDatabase;
  /** Every read of the record's tables: no command queries them itself. */
  reads: GenerationReads;
  lifecycle: GenerationLifecycle;
  spend: { ledger: SpendLedger; controls: SpendControls };
  /** Adds, moves, withdraws and forgets generations' jobs, as the server and the worker do. */
  jobs: GenerationJobOwner;
  /** The support form's requests, and how a reply leaves (SMTP_URL; the log, here stderr, in development). */
  support: { requests: SupportRequests; mailer: SupportMailer };
  /** Enterprise's Contact Sales requests. */
  sales: SalesRequests;
  /** The queues, to read and to pause; a job is changed through `jobs`. */
  queues: Record<GenerationKind, Queue<GenerationJobData>>;
  close(): Promise<void>;
}

export async function openOpsContext(settings: OpsSettings): Promise<OpsContext> {
  const artifacts = await createArtifactStore(settings.artifactStore);
  const database = openDatabase(settings.databaseUrl, { maxConnections: 2, applicationName: 'mediagen-queues-cli' });
  // A producer connection: an operator wants an error now, not a command queued until Redis returns.
  const redis = await connectRedis(settings.redis, 'producer', 'queues-cli').catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const ledger = new SpendLedger(database.db);
  const lifecycle = new GenerationLifecycle(database.db, { plans: settings.plans });
  const jobs = new GenerationJobOwner({
    connection: redis,
    prefix: settings.queuePrefix,
    retry: settings.jobs,
    retention: settings.jobRetention,
    artifacts,
    log: { warn: (details, message) => console.warn(`warning: ${message}`, details) },
  });
  const queues = Object.fromEntries(GENERATION_KINDS.map((kind) => [kind, jobs.queue(kind)])) as Record<
    GenerationKind,
    Queue<GenerationJobData>
  >;
  return {
    settings,
    redis,
    database,
    reads: new GenerationReads(database.db),
    lifecycle,
    spend: { ledger, controls: new SpendControls(database.db, redis, settings.queuePrefix, ledger) },
    jobs,
    support: {
      requests: new SupportRequests(database.db),
      mailer: createSupportMailer(settings.supportMail, {
        info: (details, message) => console.error(`${message}\n${JSON.stringify(details, null, 2)}`),
      }),
    },
    sales: new SalesRequests(database.db),
    queues,
    async close() {
      await jobs.close();
      await redis.quit().catch(() => undefined);
      await database.close();
    },
  };
}
