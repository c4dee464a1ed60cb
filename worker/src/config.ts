import { hostname } from 'node:os';
import { z } from 'zod';
import {
  GENERATION_KINDS,
  VIDEO_MAX_POLLS,
  VIDEO_POLL_INTERVAL_MS,
  isPlaceholderValue,
  type GenerationKind,
} from '@mediagen/shared';

const DEFAULT_SIMULATOR_URL = 'http://127.0.0.1:4010';

const kindList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((kind) => kind.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(GENERATION_KINDS)).min(1));

/** `max/durationMs`, e.g. `10/1000`: at most 10 jobs of that kind start per second, across all workers. */
const rateLimit = z
  .string()
  .regex(/^\d+\/\d+$/, 'must look like max/durationMs, e.g. 10/1000')
  .transform((value) => {
    const [max, duration] = value.split('/').map(Number) as [number, number];
    return { max, duration };
  })
  .refine((limit) => limit.max >= 1 && limit.duration >= 1, 'max and durationMs must both be at least 1');

const envSchema = z.object({
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z.string().min(1).default('mediagen'),
  DATA_DIR: z.string().min(1).default('./.data'),
  WORKER_KINDS: kindList.default(['image', 'video', 'speech']),
  CONCURRENCY_IMAGE: z.coerce.number().int().min(1).max(500).default(4),
  CONCURRENCY_VIDEO: z.coerce.number().int().min(1).max(500).default(20),
  CONCURRENCY_SPEECH: z.coerce.number().int().min(1).max(500).default(4),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  WORKER_NAME: z.string().min(1).optional(),
  WORKER_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9464),
  WORKER_METRICS_HOST: z.string().min(1).default('0.0.0.0'),
  JOB_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60_000),
  BREAKER_FAILURE_THRESHOLD: z.coerce.number().min(1).max(100).default(50),
  BREAKER_VOLUME_THRESHOLD: z.coerce.number().int().min(1).default(10),
  BREAKER_WINDOW_MS: z.coerce.number().int().min(100).default(10_000),
  BREAKER_COOLDOWN_MS: z.coerce.number().int().min(1).default(30_000),
  RATE_LIMIT_DEFAULT_MS: z.coerce.number().int().min(1).default(1000),
  RATE_LIMIT_IMAGE: rateLimit.optional(),
  RATE_LIMIT_VIDEO: rateLimit.optional(),
  RATE_LIMIT_SPEECH: rateLimit.optional(),
  VIDEO_POLL_INTERVAL_MS: z.coerce.number().int().min(1).default(VIDEO_POLL_INTERVAL_MS),
  VIDEO_MAX_POLLS: z.coerce.number().int().min(1).default(VIDEO_MAX_POLLS),
  SIMULATOR_URL: z.string().url().default(DEFAULT_SIMULATOR_URL),
  STABILITY_API_KEY: z.string().optional(),
  STABILITY_API_BASE: z.string().url().default('https://api.stability.ai'),
  STABILITY_ENGINE: z.string().min(1).default('stable-diffusion-xl-1024-v1-0'),
  STABILITY_TIMEOUT_MS: z.coerce.number().int().min(1).default(120_000),
  MINIMAX_API_KEY: z.string().optional(),
  MINIMAX_GROUP_ID: z.string().optional(),
  MINIMAX_API_BASE: z.string().url().default('https://api.minimax.chat/v1'),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().default('https://api.openai.com/v1'),
});

export interface ProviderEndpoint {
  baseUrl: string;
  apiKey: string;
  simulated: boolean;
}

export interface BreakerSettings {
  /** Percentage of failed calls in the window above which the breaker opens. */
  failureThresholdPercent: number;
  /** Calls needed in the window before the percentage counts, so one early failure cannot open it. */
  volumeThreshold: number;
  windowMs: number;
  cooldownMs: number;
}

export interface WorkerConfig {
  redisUrl: string;
  queuePrefix: string;
  artifactsDir: string;
  kinds: GenerationKind[];
  concurrency: Record<GenerationKind, number>;
  shutdownGraceMs: number;
  /** Recorded on each job it runs (BullMQ processedBy); default host:pid. */
  workerName: string;
  /** BullMQ lock duration and stalled-check interval: how soon a job of a crashed worker is taken over. */
  lockMs: number;
  /** null: no metrics endpoint. */
  metrics: { port: number; host: string } | null;
  jobDeadlineMs: number;
  breaker: BreakerSettings;
  /** Pause of a queue after a 429 without a usable Retry-After. */
  defaultRetryAfterMs: number;
  /** Static per-kind limits from RATE_LIMIT_<KIND>. */
  rateLimits: Partial<Record<GenerationKind, { max: number; duration: number }>>;
  videoPolling: { intervalMs: number; maxPolls: number };
  stability: ProviderEndpoint & { engine: string; timeoutMs: number };
  minimax: ProviderEndpoint & { groupId: string };
  openai: ProviderEndpoint;
}

export class WorkerConfigError extends Error {
  override readonly name = 'WorkerConfigError';
}

function hasValue(value: string | undefined): value is string {
  return value !== undefined && !isPlaceholderValue(value);
}

/**
 * A provider with no key set is served by the simulator, so a fresh clone runs end to end offline.
 * A key that is set but looks like a placeholder is a mistake, not a request for the simulator.
 */
function endpoint(key: string | undefined, realBase: string, simulatorBase: string): ProviderEndpoint {
  if (key === undefined || key === '') return { baseUrl: simulatorBase, apiKey: 'simulator', simulated: true };
  return { baseUrl: realBase, apiKey: key, simulated: false };
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv): WorkerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new WorkerConfigError(`Invalid worker configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const problems = (['STABILITY_API_KEY', 'MINIMAX_API_KEY', 'OPENAI_API_KEY'] as const)
    .filter((name) => e[name] !== undefined && e[name] !== '' && !hasValue(e[name]))
    .map((name) => `Invalid configuration: ${name} has an invalid value`);
  if (hasValue(e.MINIMAX_API_KEY) && !hasValue(e.MINIMAX_GROUP_ID)) {
    problems.push('Missing required environment variable: MINIMAX_GROUP_ID (needed with MINIMAX_API_KEY)');
  }
  if (problems.length > 0) throw new WorkerConfigError(problems.join('\n'));

  const simulator = e.SIMULATOR_URL.replace(/\/$/, '');
  const minimax = endpoint(e.MINIMAX_API_KEY, e.MINIMAX_API_BASE, `${simulator}/v1`);
  return {
    redisUrl: e.REDIS_URL,
    queuePrefix: e.QUEUE_PREFIX,
    artifactsDir: `${e.DATA_DIR}/artifacts`,
    kinds: [...new Set(e.WORKER_KINDS)],
    concurrency: { image: e.CONCURRENCY_IMAGE, video: e.CONCURRENCY_VIDEO, speech: e.CONCURRENCY_SPEECH },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    workerName: e.WORKER_NAME ?? `${hostname()}:${process.pid}`,
    lockMs: e.WORKER_LOCK_MS,
    metrics: e.WORKER_METRICS_PORT === 0 ? null : { port: e.WORKER_METRICS_PORT, host: e.WORKER_METRICS_HOST },
    jobDeadlineMs: e.JOB_DEADLINE_MS,
    breaker: {
      failureThresholdPercent: e.BREAKER_FAILURE_THRESHOLD,
      volumeThreshold: e.BREAKER_VOLUME_THRESHOLD,
      windowMs: e.BREAKER_WINDOW_MS,
      cooldownMs: e.BREAKER_COOLDOWN_MS,
    },
    defaultRetryAfterMs: e.RATE_LIMIT_DEFAULT_MS,
    rateLimits: Object.fromEntries(
      (['image', 'video', 'speech'] as const)
        .map((kind) => [kind, e[`RATE_LIMIT_${kind.toUpperCase() as Uppercase<GenerationKind>}`]] as const)
        .filter(([, limit]) => limit !== undefined),
    ),
    videoPolling: { intervalMs: e.VIDEO_POLL_INTERVAL_MS, maxPolls: e.VIDEO_MAX_POLLS },
    stability: {
      ...endpoint(e.STABILITY_API_KEY, e.STABILITY_API_BASE, simulator),
      engine: e.STABILITY_ENGINE,
      timeoutMs: e.STABILITY_TIMEOUT_MS,
    },
    minimax: { ...minimax, groupId: minimax.simulated ? 'simulator' : e.MINIMAX_GROUP_ID! },
    openai: endpoint(e.OPENAI_API_KEY, e.OPENAI_BASE_URL, `${simulator}/v1`),
  };
}
