import { resolve } from 'node:path';
import { z } from 'zod';
import { readArtifactStoreSettings, type ArtifactStoreSettings } from '../artifacts/artifact-store-config';
import { DEFAULT_SPEECH_MODEL, SPEECH_MODEL_IDS, type PlanCatalogue, type SpeechModel } from '@mediagen/shared';
import { wholeNumber, type EnvReader } from './env-reader';
import { readPlanCatalogue } from './plan-settings';
import { readRedisEndpoint } from './redis-settings';
import type { RedisEndpoint } from '../redis-endpoint';

/**
 * `development` turns on the shortcuts that make a fresh clone run offline (built-in secrets, the Auth
 * emulator, the provider simulator, open metrics). It is never the fallback: anything but an explicit
 * MEDIAGEN_MODE=development is production, which refuses to start without its settings.
 */
export const MODES = ['development', 'production'] as const;
export type Mode = (typeof MODES)[number];
export const MODE_VARIABLE = 'MEDIAGEN_MODE';

/** What server, worker and the queue CLI must agree on. */
export interface CommonSettings {
  mode: Mode;
  /** PostgreSQL: the record of generations, balances, the token ledger and idempotency keys. */
  databaseUrl: string;
  /** REDIS_URL, or the primary that REDIS_SENTINELS name (it moves on failover). */
  redis: RedisEndpoint;
  /** BullMQ's `prefix` and the prefix of every Redis key we write. */
  queuePrefix: string;
  /** Absolute; the file store keeps artifacts in `<dataDir>/artifacts`. */
  dataDir: string;
  /** ARTIFACT_STORE and the S3_* settings: the same on every server and worker, or results go missing. */
  artifactStore: ArtifactStoreSettings;
  /** BullMQ's retry policy of generation jobs (the API enqueues them, the reconciler may again). */
  jobs: { attempts: number; backoffMs: number };
  /** What each plan gives (allowance, period, request limits, watermark, priority). */
  plans: PlanCatalogue;
  /** How long BullMQ keeps finished jobs for operators; history lives in the record regardless. */
  jobRetention: { completedSeconds: number; failedSeconds: number };
  /**
   * SPEECH_MODEL: the OpenAI model that reads speech. The API checks requests against its rules (speeds,
   * voices) and records it with each speech generation; the workers read each with the model recorded.
   */
  speechModel: SpeechModel;
}

export const DEVELOPMENT_DEFAULTS = {
  // No user: the OS user's role, as psql does.
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/mediagen',
  REDIS_URL: 'redis://127.0.0.1:6379',
  DATA_DIR: './.data',
} as const;

export const databaseUrlSchema = z.url({
  protocol: /^postgres(ql)?$/,
  error: 'must be a postgres:// or postgresql:// URL',
});
const prefixSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.{}-]{1,64}$/, { error: 'may hold up to 64 letters, digits and _ . - { } only' });
const pathSchema = z.string().min(1);
const DAY_SECONDS = 24 * 60 * 60;

export function readMode(reader: EnvReader): Mode {
  return reader.read(MODE_VARIABLE, z.enum(MODES, { error: 'must be development or production' })) ?? 'production';
}

/** Reads the shared settings; in production the development defaults are not there to fall back on. */
export function readCommonSettings(reader: EnvReader): CommonSettings {
  const mode = readMode(reader);
  const development = mode === 'development';
  const needed = `required when ${MODE_VARIABLE} is not development`;
  const databaseUrl = development
    ? reader.read('DATABASE_URL', databaseUrlSchema, DEVELOPMENT_DEFAULTS.DATABASE_URL)
    : reader.require('DATABASE_URL', databaseUrlSchema, needed);
  const dataDir = development
    ? reader.read('DATA_DIR', pathSchema, DEVELOPMENT_DEFAULTS.DATA_DIR)
    : reader.require('DATA_DIR', pathSchema, needed);
  return {
    mode,
    databaseUrl: databaseUrl ?? DEVELOPMENT_DEFAULTS.DATABASE_URL,
    redis: readRedisEndpoint(
      reader,
      development ? { defaultUrl: DEVELOPMENT_DEFAULTS.REDIS_URL } : { requiredBecause: needed },
    ),
    queuePrefix: reader.read('QUEUE_PREFIX', prefixSchema, 'mediagen') ?? 'mediagen',
    plans: readPlanCatalogue(reader),
    dataDir: resolve(dataDir ?? DEVELOPMENT_DEFAULTS.DATA_DIR),
    artifactStore: readArtifactStoreSettings(reader, resolve(dataDir ?? DEVELOPMENT_DEFAULTS.DATA_DIR)),
    jobs: {
      attempts: reader.read('JOB_ATTEMPTS', wholeNumber(1, 20), '3') ?? 3,
      backoffMs: reader.read('JOB_BACKOFF_MS', wholeNumber(0, 10 * 60 * 1000), '2000') ?? 2000,
    },
    speechModel:
      reader.read(
        'SPEECH_MODEL',
        z.enum(SPEECH_MODEL_IDS, { error: `must be one of ${SPEECH_MODEL_IDS.join(', ')}` }),
        DEFAULT_SPEECH_MODEL,
      ) ?? DEFAULT_SPEECH_MODEL,
    jobRetention: {
      completedSeconds:
        reader.read('JOB_KEEP_COMPLETED_SECONDS', wholeNumber(0, 90 * DAY_SECONDS), String(DAY_SECONDS)) ?? DAY_SECONDS,
      failedSeconds:
        reader.read('JOB_KEEP_FAILED_SECONDS', wholeNumber(0, 90 * DAY_SECONDS), String(7 * DAY_SECONDS)) ??
        7 * DAY_SECONDS,
    },
  };
}

/**
 * MAX_IN_FLIGHT_PER_USER: queued + active generations one user may hold. The API's submissions and the
 * queue CLI's retries both keep to it, so both read it here.
 */
export function readMaxInFlightPerUser(reader: EnvReader): number {
  return reader.read('MAX_IN_FLIGHT_PER_USER', wholeNumber(1, 1000), '3') ?? 3;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/** Whether a listen address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
}
