import type { Worker } from 'bullmq';
import {
  BillingRecord,
  GenerationJobOwner,
  GenerationLifecycle,
  GenerationReads,
  RecentRunTimes,
  connectRedis,
  createArtifactStore,
  migrateToLatest,
  onCancelSignals,
  openDatabase,
  publishProgress,
  SpendControls,
  SpendLedger,
  estimateCostUsd,
  type ArtifactStore,
} from '@mediagen/core';
import { PLAN_IDS } from '@mediagen/shared';
import { jobDeadlineOf, type WorkerConfig } from './config';
import { CreditProbe } from './credit-probe';
import { canceledError } from './generation-error';
import { HandBack, createJobRunner } from './job-runner';
import { startKindWorkers } from './kind-workers';
import { WorkerMetrics } from './observability/worker-metrics';
import { workerLine } from './observability/worker-log';
import { createImageProcessor } from './processors/image-processor';
import { ContentCredentials } from './marking/content-credentials';
import { loadSigningCredentials } from './marking/signing-credentials';
import type { ProcessorContext } from './processors/processor-context';
import { createSpeechProcessor } from './processors/speech-processor';
import { createVideoProcessor } from './processors/video-processor';
import { GuardedDownloader } from './providers/guarded-download';
import { MiniMaxClient } from './providers/minimax-client';
import { OpenAISpeechClient } from './providers/openai-speech-client';
import { openaiRealtime, simulatorRealtime } from './providers/realtime/realtime-endpoint';
import { RealtimeSpeechClient } from './providers/realtime/realtime-speech-client';
import { ProviderBreakers } from './providers/provider-breakers';
import { BREAKER_FAILURES } from './providers/provider-calls';
import { ProviderGateway, isProviderFault } from './providers/provider-gateway';
import { ProviderRateLimiter } from './providers/provider-rate-limiter';
import { StabilityClient } from './providers/stability-client';
import { StableImageClient } from './providers/stable-image-client';
import { startMaintenanceLoop } from './maintenance-loop';
import { createJobSpend } from './job-spend';
import { PriorityAging } from './priority-aging';
import { Reconciler, type ReconcileReport } from './reconciler';
import { RetentionSweep, type RetentionReport } from './retention-sweep';
import { startWebhookDelivery } from './webhooks/webhook-delivery';

/** This process's share of PostgreSQL's connections (it allows 100 in all, for every process). */
const DATABASE_CONNECTIONS = 5;

export interface GenerationWorkers {
  workers: Worker[];
  metrics: WorkerMetrics;
  /** True while every worker runs and no shutdown has begun. */
  healthy(): boolean;
  /** One reconciliation pass now (null when another process is reconciling); it also runs on a timer. */
  reconcile(): Promise<ReconcileReport | null>;
  /** One retention sweep now; it also runs on the reconciler's timer. */
  sweepRetention(): Promise<RetentionReport>;
  /**
   * Stops taking jobs and waits up to `graceMs` for active ones; then aborts what is still running and
   * puts those jobs back in their queue (no attempt used), so another worker takes them at once.
   */
  close(graceMs?: number): Promise<void>;
}

function buildContext(
  config: WorkerConfig,
  downloader: GuardedDownloader,
  artifacts: ArtifactStore,
  clock: () => number,
  contentCredentials: ContentCredentials | null,
): ProcessorContext {
  return {
    contentCredentials,
    artifacts,
    clock,
    stability: new StabilityClient(config.stability),
    stableImage: new StableImageClient(config.stability),
    minimax: new MiniMaxClient({ ...config.minimax, download: (url, signal) => downloader.fetch(url, signal) }),
    speech: {
      'speech-endpoint': new OpenAISpeechClient(config.openai),
      realtime: new RealtimeSpeechClient({
        apiKey: config.openai.apiKey,
        endpoint: config.openai.simulated
          ? simulatorRealtime(config.simulatorUrl, config.simulatorTlsUrl)
          : openaiRealtime(config.openai.baseUrl),
      }),
    },
    speechModel: config.speechModel,
    videoPolling: config.videoPolling,
    videoModel: config.minimax.model,
  };
}

/** The signer of outputs' Content Credentials, or null (said at start: outputs go unsigned). */
async function startContentCredentials(config: WorkerConfig): Promise<ContentCredentials | null> {
  const credentials = await loadSigningCredentials(config.c2pa, {
    development: config.mode === 'development',
    dataDir: config.dataDir,
  });
  if (credentials === null) {
    console.warn(
      '[worker] C2PA_SIGNING_KEY and C2PA_CERT_CHAIN unset: outputs carry plain AI-content metadata but no signed ' +
        'Content Credentials (set C2PA_REQUIRED=true to refuse to start instead)',
    );
    return null;
  }
  const signer = new ContentCredentials(credentials);
  console.log(`[worker] Content Credentials signed by ${signer.subject}`);
  return signer;
}

/** The worker process's work: one BullMQ Worker per kind it serves, the reconciler, and their shutdown. */
export async function startGenerationWorkers(
  config: WorkerConfig,
  options: { metrics?: WorkerMetrics; clock?: () => number } = {},
): Promise<GenerationWorkers> {
  const database = openDatabase(config.databaseUrl, {
    maxConnections: DATABASE_CONNECTIONS,
    applicationName: `${config.queuePrefix}:worker`,
  });
  await migrateToLatest(database.db);
  const lifecycle = new GenerationLifecycle(database.db, { maxPaidCalls: config.maxPaidCalls, plans: config.plans });
  const commands = await connectRedis(config.redis, 'blocking', 'worker-commands');
  const subscriber = await connectRedis(config.redis, 'blocking', 'worker-cancellations');
  const downloader = new GuardedDownloader(config.videoDownload);
  const context = buildContext(
    config,
    downloader,
    await createArtifactStore(config.artifactStore),
    options.clock ?? Date.now,
    await startContentCredentials(config),
  );
  // Whichever process holds the reconciler's lock reconciles every kind, served here or not.
  const jobs = new GenerationJobOwner({
    connection: commands,
    prefix: config.queuePrefix,
    retry: config.jobs,
    retention: config.jobRetention,
    artifacts: context.artifacts,
    log: { warn: (details, message) => console.warn(`[worker] ${message}`, details) },
  });
  const metrics = options.metrics ?? new WorkerMetrics();
  const breakers = new ProviderBreakers(
    config.breaker,
    (error) => isProviderFault(error, BREAKER_FAILURES),
    (provider, state) => {
      metrics.breaker(provider, state);
      console.warn(`[worker] ${provider} circuit breaker ${state}`);
    },
  );
  const active = new Map<string, AbortController>();
  let stopping = false;
  const spendLedger = new SpendLedger(database.db);
  const spendControls = new SpendControls(database.db, commands, config.queuePrefix, spendLedger);
  const costContext = { videoModel: context.videoModel, speechModel: config.speechModel };
  // Stability counts credits (1 = $0.01): it has credit again once it covers an image at the spec's settings.
  const creditsPerImage = estimateCostUsd('image', {}, config.prices, costContext) * 100;
  const creditProbe = new CreditProbe(
    spendControls.credit,
    { stability: async () => (await context.stability.balanceCredits()) >= creditsPerImage },
    (message) => console.warn(workerLine(message)),
  );

  // A cancel made anywhere aborts the provider call in flight here at once.
  const stopListening = await onCancelSignals(subscriber, config.queuePrefix, (generationId) => {
    active.get(generationId)?.abort(canceledError());
  });

  const run = createJobRunner({
    lifecycle,
    processors: {
      image: createImageProcessor(context),
      video: createVideoProcessor(context),
      speech: createSpeechProcessor(context),
    },
    gateway: new ProviderGateway(
      breakers,
      metrics,
      new ProviderRateLimiter(commands, config.queuePrefix, config.providerLimits),
    ),
    jobs,
    metrics,
    recentRuns: new RecentRunTimes(commands, config.queuePrefix),
    publishProgress: (event) => publishProgress(commands, config.queuePrefix, event),
    pauseQueue: (kind, ms) => kindWorkers.pause(kind, ms),
    active,
    jobDeadlineMs: jobDeadlineOf(config),
    defaultRetryAfterMs: config.defaultRetryAfterMs,
    spend: createJobSpend({
      controls: spendControls,
      ledger: spendLedger,
      prices: config.prices,
      costContext,
      metrics,
      credit: creditProbe,
      retryAfterMs: config.spendRetryMs,
      log: (message) => console.warn(workerLine(message)),
    }),
    log: (message) => console.warn(workerLine(message)),
  });

  const kindWorkers = await startKindWorkers(config, run);

  const reads = new GenerationReads(database.db);
  const reconciler = new Reconciler({
    db: database.db,
    reads,
    lifecycle,
    jobs,
    plans: config.plans,
    staleAfterMs: config.reconciler.staleAfterMs,
    jobDeadlineMs: jobDeadlineOf(config),
  });
  const retention = new RetentionSweep({
    lifecycle,
    jobs,
    retentionDays: config.artifactRetentionDays,
    log: (message) => console.warn(workerLine(message)),
  });
  // Only the grace sweep: checkout and events are the server's (no Stripe key reaches the workers).
  const billing = new BillingRecord(database.db, {
    plans: config.plans,
    prices: new Map(),
    source: null,
    graceDays: config.billingGraceDays,
    jobs,
    log: { warn: (details, message) => console.warn(`[worker] ${message}`, details) },
  });
  const aging = new PriorityAging({
    reads,
    lifecycle,
    jobs,
    afterMs: config.priorityAgingMs,
    topPriority: Math.min(...PLAN_IDS.map((plan) => config.plans[plan].queuePriority)),
  });
  // On queues and connections of their own: a receiver's slowness never reaches a generation.
  const webhooks = await startWebhookDelivery({
    settings: config.webhooks,
    db: database.db,
    databaseUrl: config.databaseUrl,
    redis: config.redis,
    prefix: config.queuePrefix,
    workerName: config.workerName,
  });
  const maintenance = startMaintenanceLoop(
    { reconciler, retention, aging, billing, spend: spendControls, credit: creditProbe, metrics },
    config.reconciler.intervalMs,
  );

  return {
    workers: kindWorkers.workers,
    metrics,
    healthy: () => !stopping && kindWorkers.running(),
    reconcile: () => reconciler.reconcile(),
    sweepRetention: () => retention.sweep(),
    async close(graceMs = config.shutdownGraceMs) {
      stopping = true;
      maintenance.stop();
      // Past the grace period, what still runs is stopped and put back in its queue for another worker.
      await kindWorkers.close(graceMs, () => {
        for (const controller of active.values()) controller.abort(new HandBack());
      });
      await webhooks.close();
      breakers.shutdown();
      await downloader.close();
      await stopListening();
      await jobs.close();
      await subscriber.quit().catch(() => undefined);
      await commands.quit().catch(() => undefined);
      await database.close();
    },
  };
}
