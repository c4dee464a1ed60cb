import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  DEV_ARTIFACT_URL_SECRET,
  EnvReader,
  isLoopbackHost,
  readWebhookSecretKey,
  readBillingGraceDays,
  readCommonSettings,
  readPriceTable,
  readTracingSettings,
  TRACED_SERVICES,
  wholeNumber,
  type CommonSettings,
  type Env,
  type PriceTable,
  type TracingSettings,
} from '@mediagen/core';
import {
  GENERATION_KINDS,
  PLAN_IDS,
  VIDEO_POLL_INTERVAL_MS,
  extraPollWindowMs,
  sentVideoModel,
  speechModelNotice,
  type GenerationKind,
  type PlanId,
} from '@mediagen/shared';
import type { SigningSettings } from './marking/signing-credentials';
import { maxPollsFor, type VideoPolling } from './processors/video-polling';
import { readProviderSettings, type ProviderSettings } from './providers/provider-config';
import type { ProviderLimitSettings } from './providers/provider-rate-limiter';
import { STANDARD_RETRY_DELAYS_MS, type WebhookSettings } from './webhooks/webhook-delivery';

export { ConfigError as WorkerConfigError } from '@mediagen/core';
export type { ProviderEndpoint } from './providers/provider-config';
/**
 * Where MiniMax serves generated files from: its own domains and the Alibaba Cloud object storage behind
 * its mainland region. A suffix allows the domain and its subdomains; confirm with `pnpm smoke:providers`.
 */
const DEFAULT_VIDEO_DOWNLOAD_HOSTS =
  'minimax.io,minimaxi.com,minimax.chat,minimaxi.chat,hailuoai.video,hailuoai.com,aliyuncs.com';
/**
 * MiniMax's own domains. Its file host may hand out `http://` links (a real account's answers, issue 34;
 * https://platform.minimax.io/docs/api-reference/video-generation-download names no scheme): those are
 * fetched over https. A plain-http link to any other host is refused.
 */
const MINIMAX_OWN_FILE_HOSTS = [
  'minimax.io',
  'minimaxi.com',
  'minimax.chat',
  'minimaxi.chat',
  'hailuoai.video',
  'hailuoai.com',
];

export interface BreakerSettings {
  /** Percentage of failed calls in the window above which the breaker opens. */
  failureThresholdPercent: number;
  /** Calls needed in the window before the percentage counts, so one early failure cannot open it. */
  volumeThreshold: number;
  windowMs: number;
  cooldownMs: number;
}

/** What a provider's file download may reach (the video file the provider's answer points at). */
export interface DownloadPolicy {
  /** Host suffixes files may come from, over https. */
  allowedHosts: string[];
  /** Host suffixes whose `http://` links are fetched over https instead of refused (the provider's own). */
  httpsUpgradeHosts: string[];
  /** `host:port`s reachable over plain http and on private addresses: local stand-ins, in development only. */
  developmentHosts: string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export interface WorkerConfig extends CommonSettings {
  artifactsDir: string;
  /** The kinds it serves: WORKER_KINDS, less speech when SPEECH_MODEL has been shut down by its provider. */
  kinds: GenerationKind[];
  /** What the worker must tell its operators at start-up (a speech model's shutdown). */
  notices: string[];
  /** The OTEL_* settings: null when tracing is off (core/src/config/tracing-settings.ts). */
  tracing: TracingSettings | null;
  concurrency: Record<GenerationKind, number>;
  shutdownGraceMs: number;
  /** Recorded on each job it runs (BullMQ processedBy); default host:pid. */
  workerName: string;
  /** BullMQ lock duration and stalled-check interval: how soon a job of a crashed worker is taken over. */
  lockMs: number;
  /** null: no metrics endpoint. */
  metrics: { port: number; host: string; token: string | null } | null;
  jobDeadlineMs: number;
  /** Provider calls that may cost money one generation may make; a retry past it fails the job. */
  maxPaidCalls: number;
  /** How often the reconciler runs, and how long a generation must be untouched before it checks it. */
  reconciler: { intervalMs: number; staleAfterMs: number };
  /** A job waiting this long runs next whatever its plan, so paid plans' priority never starves Free. */
  priorityAgingMs: number;
  /** What paid calls are estimated to cost (PRICE_*). */
  prices: PriceTable;
  /** How long a queue held back by a budget or the kill switch waits before trying again. */
  spendRetryMs: number;
  /** Days a plan's results are kept before retention deletes their files (records stay); absent: kept. */
  artifactRetentionDays: Partial<Record<PlanId, number>>;
  /** BILLING_GRACE_DAYS: a past-due subscription keeps its plan this long; the maintenance loop then lapses it. */
  billingGraceDays: number;
  breaker: BreakerSettings;
  /** Pause of a queue after a 429 without a usable Retry-After. */
  defaultRetryAfterMs: number;
  /** Static per-kind limits from RATE_LIMIT_<KIND>. */
  rateLimits: Partial<Record<GenerationKind, { max: number; duration: number }>>;
  /** `maxPolls` (VIDEO_MAX_POLLS) unset: each video polled for its model's window (shared/src/video.ts). */
  videoPolling: VideoPolling;
  videoDownload: DownloadPolicy;
  stability: ProviderSettings['stability'];
  minimax: ProviderSettings['minimax'];
  openai: ProviderSettings['openai'];
  simulatorUrl: ProviderSettings['simulatorUrl'];
  simulatorTlsUrl: ProviderSettings['simulatorTlsUrl'];
  /** Each provider's documented rate limit, shared by every worker process (provider-rate-limiter.ts). */
  providerLimits: ProviderLimitSettings;
  /** Webhook deliveries (webhooks/): the secrets' key, concurrency, timeout, retries, result links. */
  webhooks: WebhookSettings;
  /** Content Credentials (C2PA): the signing key and chain, a timestamp authority, whether start needs them. */
  c2pa: SigningSettings & { required: boolean };
}

const percent = z
  .string()
  .regex(/^\d+(\.\d+)?$/, { error: 'must be a number' })
  .transform(Number)
  .pipe(z.number().min(1, { error: 'must be at least 1' }).max(100, { error: 'must be at most 100' }));
const kindList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((kind) => kind.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(GENERATION_KINDS, { error: `must list kinds among ${GENERATION_KINDS.join(', ')}` })).min(1));

const hostList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((host) => host.trim().toLowerCase().replace(/^\*\./, ''))
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[a-z0-9.-]+$/, { error: 'must be a comma list of host names' })).min(1));

/** `max/durationMs`, e.g. `10/1000`: at most 10 jobs of that kind start per second, across all workers. */
const rateLimit = z
  .string()
  .regex(/^\d+\/\d+$/, 'must look like max/durationMs, e.g. 10/1000')
  .transform((value) => {
    const [max, duration] = value.split('/').map(Number) as [number, number];
    return { max, duration };
  })
  .refine((limit) => limit.max >= 1 && limit.duration >= 1, 'max and durationMs must both be at least 1');

function videoPolling(reader: EnvReader): WorkerConfig['videoPolling'] {
  const intervalMs =
    reader.read('VIDEO_POLL_INTERVAL_MS', wholeNumber(1), String(VIDEO_POLL_INTERVAL_MS)) ?? VIDEO_POLL_INTERVAL_MS;
  const maxPolls = reader.read('VIDEO_MAX_POLLS', wholeNumber(1));
  return maxPolls === undefined ? { intervalMs } : { intervalMs, maxPolls };
}

/** How long a generation may run from its first start (job-runner.ts, reconciler.ts). */
export type JobDeadline = (generation: { kind: GenerationKind; request: Record<string, unknown> }) => number;

/**
 * Each generation's job deadline: JOB_DEADLINE_MS, which is sized for the spec's 12-minute video window; a
 * video whose model is polled longer (Hailuo-2.3's 30 minutes: Pro's and Enterprise's videos) gets as much
 * more, so its task, already paid for, is polled to the end. Read from the model recorded with the
 * request, so a base-model video keeps the spec's deadline.
 */
export function jobDeadlineOf(
  config: Pick<WorkerConfig, 'jobDeadlineMs' | 'videoPolling'> & { minimax: Pick<WorkerConfig['minimax'], 'model'> },
): JobDeadline {
  return ({ kind, request }) => {
    if (kind !== 'video') return config.jobDeadlineMs;
    const model = sentVideoModel(request.model, config.minimax.model);
    const windowMs = config.videoPolling.intervalMs * maxPollsFor(config.videoPolling, model);
    return config.jobDeadlineMs + extraPollWindowMs(windowMs);
  };
}

/**
 * Reads and checks the worker's environment once and names every problem in one error. A provider
 * without a key is served by the simulator only in development mode (provider-config.ts); in production
 * a metrics endpoint beyond loopback needs METRICS_TOKEN.
 */
export function loadWorkerConfig(env: Env, now = Date.now()): WorkerConfig {
  const reader = new EnvReader(env);
  const common = readCommonSettings(reader);
  const development = common.mode === 'development';
  const asked = [...new Set(reader.read('WORKER_KINDS', kindList, 'image,video,speech') ?? GENERATION_KINDS)];
  const speechNotice = speechModelNotice(common.speechModel, now);
  // Past its model's shutdown, speech is left out and the other kinds run on; a worker of speech alone has none.
  const kinds = speechNotice?.retired ? asked.filter((kind) => kind !== 'speech') : asked;
  if (kinds.length === 0 && speechNotice !== null) {
    reader.problem(`WORKER_KINDS=speech leaves nothing to serve: ${speechNotice.message}`);
  }

  const providers = readProviderSettings(reader, { development, kinds });

  const metricsPort = reader.read('WORKER_METRICS_PORT', wholeNumber(0, 65_535), '9464') ?? 9464;
  const metricsHost = reader.read('WORKER_METRICS_HOST', z.string().min(1), '127.0.0.1') ?? '127.0.0.1';
  const metricsToken =
    reader.read('METRICS_TOKEN', z.string().min(16, { error: 'must be at least 16 characters' })) ?? null;
  if (!development && metricsPort !== 0 && metricsToken === null && !isLoopbackHost(metricsHost)) {
    if (!reader.reported('METRICS_TOKEN')) {
      reader.problem(
        `Missing required environment variable: METRICS_TOKEN (WORKER_METRICS_HOST=${metricsHost} exposes ` +
          '/metrics beyond this machine; set METRICS_TOKEN, or keep the default loopback host)',
      );
    }
  }

  const webhooks = readWebhookSettings(reader, development);
  const defaultRetryAfterMs = reader.read('RATE_LIMIT_DEFAULT_MS', wholeNumber(1), '1000') ?? 1000;
  const config: WorkerConfig = {
    ...common,
    artifactsDir: resolve(common.dataDir, 'artifacts'),
    kinds,
    notices: speechNotice !== null && asked.includes('speech') ? [speechNotice.message] : [],
    tracing: readTracingSettings(reader, TRACED_SERVICES.worker),
    concurrency: {
      image: reader.read('CONCURRENCY_IMAGE', wholeNumber(1, 500), '4') ?? 4,
      video: reader.read('CONCURRENCY_VIDEO', wholeNumber(1, 500), '20') ?? 20,
      speech: reader.read('CONCURRENCY_SPEECH', wholeNumber(1, 500), '4') ?? 4,
    },
    shutdownGraceMs: reader.read('SHUTDOWN_GRACE_MS', wholeNumber(0), '30000') ?? 30_000,
    workerName: reader.raw('WORKER_NAME') ?? `${hostname()}:${process.pid}`,
    lockMs: reader.read('WORKER_LOCK_MS', wholeNumber(1000), '30000') ?? 30_000,
    metrics: metricsPort === 0 ? null : { port: metricsPort, host: metricsHost, token: metricsToken },
    jobDeadlineMs: reader.read('JOB_DEADLINE_MS', wholeNumber(1), String(15 * 60_000)) ?? 15 * 60_000,
    maxPaidCalls: reader.read('MAX_PAID_CALLS', wholeNumber(1, 10), '2') ?? 2,
    reconciler: {
      intervalMs: reader.read('RECONCILE_INTERVAL_MS', wholeNumber(100), '30000') ?? 30_000,
      staleAfterMs: reader.read('RECONCILE_AFTER_MS', wholeNumber(0), '60000') ?? 60_000,
    },
    prices: readPriceTable(reader),
    spendRetryMs: reader.read('SPEND_RETRY_MS', wholeNumber(100, 3_600_000), '30000') ?? 30_000,
    priorityAgingMs: (reader.read('PRIORITY_AGING_SECONDS', wholeNumber(1, 86_400), '120') ?? 120) * 1000,
    billingGraceDays: readBillingGraceDays(reader),
    artifactRetentionDays: Object.fromEntries(
      PLAN_IDS.map(
        (plan) => [plan, reader.read(`ARTIFACT_RETENTION_DAYS_${plan.toUpperCase()}`, wholeNumber(1, 36_500))] as const,
      ).filter(([, days]) => days !== undefined),
    ),
    breaker: {
      failureThresholdPercent: reader.read('BREAKER_FAILURE_THRESHOLD', percent, '50') ?? 50,
      volumeThreshold: reader.read('BREAKER_VOLUME_THRESHOLD', wholeNumber(1), '10') ?? 10,
      windowMs: reader.read('BREAKER_WINDOW_MS', wholeNumber(100), '10000') ?? 10_000,
      cooldownMs: reader.read('BREAKER_COOLDOWN_MS', wholeNumber(1), '30000') ?? 30_000,
    },
    defaultRetryAfterMs,
    rateLimits: Object.fromEntries(
      GENERATION_KINDS.map(
        (kind) => [kind, reader.read(`RATE_LIMIT_${kind.toUpperCase()}`, rateLimit)] as const,
      ).filter(([, limit]) => limit !== undefined),
    ),
    videoPolling: videoPolling(reader),
    videoDownload: {
      allowedHosts: reader.read('VIDEO_DOWNLOAD_HOSTS', hostList, DEFAULT_VIDEO_DOWNLOAD_HOSTS) ?? [],
      httpsUpgradeHosts: MINIMAX_OWN_FILE_HOSTS,
      developmentHosts: providers.developmentHosts,
      maxBytes: (reader.read('VIDEO_MAX_MEGABYTES', wholeNumber(1, 4096), '256') ?? 256) * 1024 * 1024,
      timeoutMs: reader.read('VIDEO_DOWNLOAD_TIMEOUT_MS', wholeNumber(1000), String(5 * 60_000)) ?? 5 * 60_000,
      maxRedirects: 3,
    },
    stability: providers.stability,
    minimax: providers.minimax,
    openai: providers.openai,
    simulatorUrl: providers.simulatorUrl,
    simulatorTlsUrl: providers.simulatorTlsUrl,
    providerLimits: { ...providers.rateLimits, defaultPauseMs: defaultRetryAfterMs },
    webhooks,
    c2pa: readC2paSettings(reader),
  };
  reader.finish('worker');
  return config;
}

/**
 * C2PA_SIGNING_KEY and C2PA_CERT_CHAIN go together (the PEM itself, or a path to a file holding it).
 * Without them outputs keep their plain AI-content metadata unsigned, which start-up says; C2PA_REQUIRED
 * makes that a refusal to start instead.
 */
function readC2paSettings(reader: EnvReader): WorkerConfig['c2pa'] {
  const key = reader.raw('C2PA_SIGNING_KEY') ?? null;
  const certChain = reader.raw('C2PA_CERT_CHAIN') ?? null;
  const required = reader.read(
    'C2PA_REQUIRED',
    z.enum(['true', 'false']).transform((v) => v === 'true'),
    'false',
  );
  if ((key === null) !== (certChain === null)) {
    reader.problem('C2PA_SIGNING_KEY and C2PA_CERT_CHAIN are set together or not at all');
  } else if (required === true && key === null) {
    reader.problem(
      'Missing required environment variable: C2PA_SIGNING_KEY and C2PA_CERT_CHAIN (C2PA_REQUIRED=true: ' +
        'every image and MP3 must carry signed Content Credentials)',
    );
  }
  return {
    key,
    certChain,
    timestampUrl: reader.read('C2PA_TSA_URL', z.url({ protocol: /^https?$/ })) ?? null,
    required: required ?? false,
  };
}

/**
 * Webhook deliveries. The payload's result links are signed as the API signs them, so the worker reads the
 * server's ARTIFACT_URL_SECRET, ARTIFACT_URL_TTL_SECONDS and PUBLIC_URL (required outside development, as on
 * the server); the endpoints' secrets open with WEBHOOK_SECRET_KEY, the server's too.
 */
function readWebhookSettings(reader: EnvReader, development: boolean): WebhookSettings {
  const needed = 'required when MEDIAGEN_MODE is not development: webhook payloads carry signed result links';
  const linkSecret = development
    ? (reader.read('ARTIFACT_URL_SECRET', z.string()) ?? DEV_ARTIFACT_URL_SECRET)
    : reader.require('ARTIFACT_URL_SECRET', z.string().min(32, { error: 'must be at least 32 characters' }), needed);
  const origin = z
    .url({ protocol: development ? /^https?$/ : /^https$/, error: 'must be an http(s) URL (https in production)' })
    .transform((value) => value.replace(/\/+$/, ''));
  const publicUrl = development ? reader.read('PUBLIC_URL', origin) : reader.require('PUBLIC_URL', origin, needed);
  return {
    secretKey: readWebhookSecretKey(reader, development),
    concurrency: reader.read('WEBHOOK_CONCURRENCY', wholeNumber(1, 500), '20') ?? 20,
    perEndpointConcurrency: reader.read('WEBHOOK_ENDPOINT_CONCURRENCY', wholeNumber(1, 100), '2') ?? 2,
    timeoutMs: reader.read('WEBHOOK_TIMEOUT_MS', wholeNumber(1000, 60_000), '10000') ?? 10_000,
    retryDelaysMs: STANDARD_RETRY_DELAYS_MS,
    dispatchIntervalMs: reader.read('WEBHOOK_DISPATCH_INTERVAL_MS', wholeNumber(50, 60_000), '250') ?? 250,
    allowLoopback: development,
    disable: { exhaustedInRow: 5, failingForMs: 24 * 60 * 60_000 },
    artifactLinks: {
      secret: linkSecret ?? DEV_ARTIFACT_URL_SECRET,
      ttlSeconds: reader.read('ARTIFACT_URL_TTL_SECONDS', wholeNumber(60, 7 * 24 * 60 * 60), '3600') ?? 3600,
      publicUrl: publicUrl ?? null,
    },
  };
}
