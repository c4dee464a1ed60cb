import { resolve } from 'node:path';
import { isPlaceholderValue } from '@mediagen/shared';
import { z } from 'zod';

export interface ServerConfig {
  nodeEnv: string;
  production: boolean;
  logLevel: string;
  port: number;
  host: string;
  redisUrl: string;
  /** BullMQ's `prefix` and the prefix of every key the server writes. */
  queuePrefix: string;
  dataDir: string;
  artifactsDir: string;
  firebase: {
    projectId: string;
    /** When set, firebase-admin verifies tokens issued by the Auth emulator at this host:port. */
    authEmulatorHost: string | null;
    /** Path of a service account file; null means Google's default credentials. */
    credentialsFile: string | null;
  };
  artifactUrls: {
    secret: string;
    ttlSeconds: number;
    /** True when the fixed development secret is in use (never in production). */
    usingDevSecret: boolean;
  };
  /** Origin put in front of artifact URLs; null means "the address the server listens on". */
  publicUrl: string | null;
  corsOrigins: string[];
  jobs: { attempts: number; backoffMs: number };
  admin: {
    /** Emails treated as admins besides the `admin: true` custom claim (lower case). */
    emails: string[];
    /** HMAC key of the admin session cookie. */
    sessionSecret: string;
    sessionTtlSeconds: number;
  };
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  limits: {
    /** Queued + active generations one user may hold at once. */
    maxInFlightPerUser: number;
    /** Requests per minute per user (or per IP before sign-in) on /api. */
    rateLimitPerMinute: number;
  };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid server configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/**
 * Several servers verify each other's artifact URLs, so a random per-process secret would not do; this
 * fixed value is only accepted outside production, and the boot log says so.
 */
export const DEV_ARTIFACT_URL_SECRET = 'mediagen-development-artifact-url-secret-do-not-use-in-production';
const MIN_PRODUCTION_SECRET_LENGTH = 32;

const DEFAULTS = {
  PORT: '3000',
  HOST: '127.0.0.1',
  REDIS_URL: 'redis://127.0.0.1:6379',
  QUEUE_PREFIX: 'mediagen',
  DATA_DIR: './.data',
  FIREBASE_PROJECT_ID: 'demo-mediagen',
  ARTIFACT_URL_TTL_SECONDS: '3600',
  CORS_ORIGIN: 'http://127.0.0.1:5173,http://localhost:5173',
  JOB_ATTEMPTS: '3',
  JOB_BACKOFF_MS: '2000',
  LOG_LEVEL: 'info',
  ADMIN_SESSION_TTL_SECONDS: '900',
  MAX_IN_FLIGHT_PER_USER: '3',
  RATE_LIMIT_PER_MINUTE: '120',
} as const;

const KNOWN_VARIABLES = [
  ...Object.keys(DEFAULTS),
  'NODE_ENV',
  'FIREBASE_AUTH_EMULATOR_HOST',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'ARTIFACT_URL_SECRET',
  'PUBLIC_URL',
  'ADMIN_EMAILS',
  'ADMIN_SESSION_SECRET',
  'METRICS_TOKEN',
] as const;

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

const httpOrigin = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''));

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  PORT: integer(0, 65535),
  HOST: z.string().min(1),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }),
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_.{}-]+$/, { error: 'may hold letters, digits and _ . - { } only' }),
  DATA_DIR: z.string().min(1),
  FIREBASE_PROJECT_ID: z.string().regex(/^[a-z0-9-]{4,40}$/, { error: 'is not a Firebase project id' }),
  FIREBASE_AUTH_EMULATOR_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+:\d+$/, { error: 'must be host:port' })
    .optional(),
  GOOGLE_APPLICATION_CREDENTIALS: z.string().optional(),
  ARTIFACT_URL_SECRET: z.string().optional(),
  ARTIFACT_URL_TTL_SECONDS: integer(60, 7 * 24 * 60 * 60),
  PUBLIC_URL: httpOrigin.optional(),
  CORS_ORIGIN: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    )
    .pipe(z.array(httpOrigin).min(1, { error: 'must list at least one origin' })),
  JOB_ATTEMPTS: integer(1, 20),
  JOB_BACKOFF_MS: integer(0, 10 * 60 * 1000),
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter((email) => email !== ''),
    )
    .pipe(z.array(z.email({ error: 'must be a comma list of email addresses' }))),
  ADMIN_SESSION_SECRET: z.string().optional(),
  ADMIN_SESSION_TTL_SECONDS: integer(60, 24 * 60 * 60),
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  MAX_IN_FLIGHT_PER_USER: integer(1, 1000),
  RATE_LIMIT_PER_MINUTE: integer(1, 100_000),
});

/**
 * Reads and checks the environment once, at start. Every problem is collected so one failed start names
 * them all. A blank variable counts as unset; a placeholder ('your-…', 'undefined') is an error.
 */
export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  const problems: string[] = [];
  const values: Record<string, string | undefined> = {};
  for (const name of KNOWN_VARIABLES) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') {
      values[name] = name in DEFAULTS ? DEFAULTS[name as keyof typeof DEFAULTS] : undefined;
    } else if (isPlaceholderValue(raw)) {
      problems.push(`${name} has a placeholder value (${JSON.stringify(raw)})`);
    } else {
      values[name] = raw.trim();
    }
  }

  const parsed = envSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      // A placeholder was already reported and replaced by nothing; don't report it twice.
      if (problems.some((problem) => problem.startsWith(`${name} `))) continue;
      problems.push(`${name} ${issue.message}`);
    }
  }

  const production = values.NODE_ENV === 'production';
  const emulatorHost = values.FIREBASE_AUTH_EMULATOR_HOST ?? null;
  const projectId = values.FIREBASE_PROJECT_ID ?? DEFAULTS.FIREBASE_PROJECT_ID;
  if (emulatorHost === null && projectId.startsWith('demo-')) {
    problems.push(
      `FIREBASE_PROJECT_ID is the demo project "${projectId}", which only the Auth emulator serves: ` +
        'set FIREBASE_AUTH_EMULATOR_HOST (for example 127.0.0.1:9099) or a real project id',
    );
  }
  if (emulatorHost !== null && production) {
    problems.push('FIREBASE_AUTH_EMULATOR_HOST must not be set when NODE_ENV=production (it accepts unsigned tokens)');
  }

  const secret = values.ARTIFACT_URL_SECRET;
  if (production && secret === undefined && !problems.some((problem) => problem.startsWith('ARTIFACT_URL_SECRET '))) {
    problems.push('Missing required environment variable: ARTIFACT_URL_SECRET (required when NODE_ENV=production)');
  }
  if (production && secret !== undefined && secret.length < MIN_PRODUCTION_SECRET_LENGTH) {
    problems.push(`ARTIFACT_URL_SECRET must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters in production`);
  }

  const sessionSecret = values.ADMIN_SESSION_SECRET;
  if (production && sessionSecret !== undefined && sessionSecret.length < MIN_PRODUCTION_SECRET_LENGTH) {
    problems.push(`ADMIN_SESSION_SECRET must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters in production`);
  }

  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const env_ = parsed.data;
  const dataDir = resolve(env_.DATA_DIR);
  return {
    nodeEnv: env_.NODE_ENV ?? 'development',
    production,
    logLevel: env_.LOG_LEVEL,
    port: env_.PORT,
    host: env_.HOST,
    redisUrl: env_.REDIS_URL,
    queuePrefix: env_.QUEUE_PREFIX,
    dataDir,
    artifactsDir: resolve(dataDir, 'artifacts'),
    firebase: {
      projectId: env_.FIREBASE_PROJECT_ID,
      authEmulatorHost: emulatorHost,
      credentialsFile: env_.GOOGLE_APPLICATION_CREDENTIALS ?? null,
    },
    artifactUrls: {
      secret: secret ?? DEV_ARTIFACT_URL_SECRET,
      ttlSeconds: env_.ARTIFACT_URL_TTL_SECONDS,
      usingDevSecret: secret === undefined,
    },
    publicUrl: env_.PUBLIC_URL ?? (env_.PORT === 0 ? null : `http://${env_.HOST}:${env_.PORT}`),
    corsOrigins: env_.CORS_ORIGIN,
    jobs: { attempts: env_.JOB_ATTEMPTS, backoffMs: env_.JOB_BACKOFF_MS },
    admin: {
      emails: env_.ADMIN_EMAILS,
      // A separate key keeps a leaked artifact link secret from minting admin sessions; without one the
      // artifact secret (itself required in production) still makes sessions unforgeable.
      sessionSecret: `admin-session:${sessionSecret ?? secret ?? DEV_ARTIFACT_URL_SECRET}`,
      sessionTtlSeconds: env_.ADMIN_SESSION_TTL_SECONDS,
    },
    metricsToken: env_.METRICS_TOKEN ?? null,
    limits: {
      maxInFlightPerUser: env_.MAX_IN_FLIGHT_PER_USER,
      rateLimitPerMinute: env_.RATE_LIMIT_PER_MINUTE,
    },
  };
}
