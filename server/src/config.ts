import { resolve } from 'node:path';
import {
  DEV_ARTIFACT_URL_SECRET,
  EnvReader,
  MODE_VARIABLE,
  readWebhookSecretKey,
  isLoopbackHost,
  readCommonSettings,
  readMaxInFlightPerUser,
  readSupportMailSettings,
  readTracingSettings,
  TRACED_SERVICES,
  wholeNumber,
  type CommonSettings,
  type Env,
  type SupportMailSettings,
  type TracingSettings,
} from '@mediagen/core';
import { z } from 'zod';
import { readBillingSettings, type BillingSettings } from './billing/billing-settings';

export { ConfigError, DEV_ARTIFACT_URL_SECRET } from '@mediagen/core';

/** Fastify's `trustProxy`: which hops' X-Forwarded-For to believe (RATE_LIMIT counts anonymous callers by IP). */
export type TrustProxy = boolean | number | string[];

export interface ServerConfig extends CommonSettings {
  /** True only when MEDIAGEN_MODE=development was asked for. */
  development: boolean;
  logLevel: string;
  /** The OTEL_* settings: null when tracing is off (core/src/config/tracing-settings.ts). */
  tracing: TracingSettings | null;
  port: number;
  host: string;
  artifactsDir: string;
  trustProxy: TrustProxy;
  firebase: {
    projectId: string;
    /** When set (development only), firebase-admin verifies tokens issued by the Auth emulator at this host:port. */
    authEmulatorHost: string | null;
    /** Path of a service account file; null means Google's default credentials. */
    credentialsFile: string | null;
    /** An egress proxy (HTTPS_PROXY) for every call to Google: signing keys, account reads, access tokens. */
    httpsProxy: string | null;
    /** How long a verified user is trusted before their account is checked again (disabled, deleted, revoked). */
    revalidateSeconds: number;
  };
  artifactUrls: {
    secret: string;
    ttlSeconds: number;
    /** True when the fixed development secret is in use (development only). */
    usingDevSecret: boolean;
  };
  /**
   * Key of the email hash a closed account leaves behind (core's emailHash): the same on every server
   * and kept for good, or a closed account's trace would no longer be found.
   */
  accountTraceSecret: string;
  /**
   * Key of the HMAC-SHA-256 API keys are stored under (API_KEY_HMAC_SECRET): the same on every server;
   * changing it makes every key in use unknown (OPERATING, "API keys").
   */
  apiKeyHmacSecret: string;
  /** WEBHOOK_SECRET_KEY: seals webhook endpoints' signing secrets (the workers open them with it). */
  webhookSecretKey: string;
  /** Origin put in front of artifact URLs; null means "the address the server listens on". */
  publicUrl: string | null;
  corsOrigins: string[];
  admin: {
    /** Emails treated as admins besides the `admin: true` custom claim (lower case), when verified. */
    emails: string[];
    sessionTtlSeconds: number;
  };
  /** How long the app's session (token sync, POST /api/session) lasts. */
  sessionTtlSeconds: number;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** How long a stopping server lets requests under way (downloads above all) finish before cutting them. */
  shutdownGraceMs: number;
  /** How operators' replies to support requests leave (SMTP_URL; the log in development without it). */
  supportMail: SupportMailSettings;
  /** Stripe (keys, prices, the stand-in's address), trials, the past-due grace and tax. */
  billing: BillingSettings;
  limits: {
    /** Queued + active generations one user may hold at once. */
    maxInFlightPerUser: number;
    /** Requests per minute per user (or per IP before sign-in) on /api. */
    rateLimitPerMinute: number;
    /** Socket.IO connections one user may hold across every server. */
    socketsPerUser: number;
    /** Socket.IO connections not signed in (yet) one client address may hold on this server. */
    pendingSocketsPerAddress: number;
    /** Socket.IO connections not signed in (yet) this server holds in all. */
    pendingSocketsMax: number;
    /** Support requests per hour from one client address, and apart from one account. */
    supportRequestsPerHour: number;
    /** Contact Sales requests per hour, counted the same way. */
    salesRequestsPerHour: number;
  };
}

const DEV_ACCOUNT_TRACE_SECRET = 'mediagen-development-account-trace-secret-do-not-use-in-production';
const DEV_API_KEY_HMAC_SECRET = 'mediagen-development-api-key-hmac-secret-do-not-use-in-production';
const MIN_SECRET_LENGTH = 32;
const DEV_PROJECT_ID = 'demo-mediagen';
const DEV_CORS_ORIGIN = 'http://127.0.0.1:5173,http://localhost:5173';

const httpOrigin = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''));
const httpsOrigin = z
  .url({ protocol: /^https$/, error: 'must be an https:// URL in production' })
  .transform((value) => value.replace(/\/+$/, ''));

const commaList = (item: z.ZodType<string, string>, what: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .pipe(z.array(item).min(1, { error: `must list at least one ${what}` }));

const emailList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email !== ''),
  )
  .pipe(z.array(z.email({ error: 'must be a comma list of email addresses' })));

const ipOrCidr = z.string().regex(/^[0-9a-fA-F.:]+(\/\d{1,3})?$/, { error: 'must list IP addresses or CIDR ranges' });
const trustProxySchema = z.union([
  z.enum(['true', 'false']).transform((value) => value === 'true'),
  z
    .string()
    .regex(/^\d{1,2}$/)
    .transform(Number),
  commaList(ipOrCidr, 'address'),
]);

/**
 * Reads and checks the environment once, at start, and names every problem in one ConfigError. Outside
 * development mode there is nothing to fall back on: secrets, the real Firebase project, the public
 * origins and the metrics protection must be given, and the Auth emulator is refused.
 */
export function loadConfig(env: Env): ServerConfig {
  const reader = new EnvReader(env);
  const common = readCommonSettings(reader);
  const development = common.mode === 'development';
  const inProduction = `required when ${MODE_VARIABLE} is not development`;
  const orDefault = <T>(name: string, schema: z.ZodType<T, string>, devDefault: string) =>
    development ? reader.read(name, schema, devDefault) : reader.require(name, schema, inProduction);

  const port = reader.read('PORT', wholeNumber(0, 65535), '3000') ?? 3000;
  const host = reader.read('HOST', z.string().min(1), '127.0.0.1') ?? '127.0.0.1';

  const projectId = orDefault(
    'FIREBASE_PROJECT_ID',
    z.string().regex(/^[a-z0-9-]{4,40}$/, { error: 'is not a Firebase project id' }),
    DEV_PROJECT_ID,
  );
  const emulatorHost = readEmulatorHost(reader, development);
  if (projectId?.startsWith('demo-') && emulatorHost === null && !reader.reported('FIREBASE_AUTH_EMULATOR_HOST')) {
    reader.problem(
      `FIREBASE_PROJECT_ID is the demo project "${projectId}", which only the Auth emulator serves: ` +
        (development
          ? 'set FIREBASE_AUTH_EMULATOR_HOST (for example 127.0.0.1:9099) or a real project id'
          : 'set a real project id'),
    );
  }

  const secretSchema = z.string().min(MIN_SECRET_LENGTH, { error: `must be at least ${MIN_SECRET_LENGTH} characters` });
  const artifactSecret = development
    ? (reader.read('ARTIFACT_URL_SECRET', z.string()) ?? DEV_ARTIFACT_URL_SECRET)
    : reader.require('ARTIFACT_URL_SECRET', secretSchema, inProduction);
  const accountTraceSecret = development
    ? (reader.read('ACCOUNT_TRACE_SECRET', z.string()) ?? DEV_ACCOUNT_TRACE_SECRET)
    : reader.require('ACCOUNT_TRACE_SECRET', secretSchema, inProduction);
  const apiKeyHmacSecret = development
    ? (reader.read('API_KEY_HMAC_SECRET', z.string()) ?? DEV_API_KEY_HMAC_SECRET)
    : reader.require('API_KEY_HMAC_SECRET', secretSchema, inProduction);

  const publicUrl = development
    ? reader.read('PUBLIC_URL', httpOrigin)
    : reader.require('PUBLIC_URL', httpsOrigin, inProduction);
  const corsOrigins = orDefault(
    'CORS_ORIGIN',
    commaList(development ? httpOrigin : httpsOrigin, 'origin'),
    DEV_CORS_ORIGIN,
  );

  const metricsToken =
    reader.read('METRICS_TOKEN', z.string().min(16, { error: 'must be at least 16 characters' })) ?? null;
  if (!development && metricsToken === null && !isLoopbackHost(host) && !reader.reported('METRICS_TOKEN')) {
    reader.problem(
      `Missing required environment variable: METRICS_TOKEN (HOST=${host} exposes /metrics beyond this ` +
        'machine; set METRICS_TOKEN, or listen on a loopback address behind a proxy)',
    );
  }

  const config: ServerConfig = {
    ...common,
    development,
    logLevel:
      reader.read('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info') ??
      'info',
    tracing: readTracingSettings(reader, TRACED_SERVICES.api),
    port,
    host,
    artifactsDir: resolve(common.dataDir, 'artifacts'),
    trustProxy: reader.read('TRUST_PROXY', trustProxySchema, 'false') ?? false,
    firebase: {
      projectId: projectId ?? DEV_PROJECT_ID,
      authEmulatorHost: emulatorHost,
      credentialsFile: reader.raw('GOOGLE_APPLICATION_CREDENTIALS') ?? null,
      httpsProxy: reader.read('HTTPS_PROXY', httpOrigin) ?? null,
      revalidateSeconds: reader.read('AUTH_REVALIDATE_SECONDS', wholeNumber(1, 3600), '60') ?? 60,
    },
    accountTraceSecret: accountTraceSecret ?? DEV_ACCOUNT_TRACE_SECRET,
    apiKeyHmacSecret: apiKeyHmacSecret ?? DEV_API_KEY_HMAC_SECRET,
    webhookSecretKey: readWebhookSecretKey(reader, development),
    artifactUrls: {
      secret: artifactSecret ?? DEV_ARTIFACT_URL_SECRET,
      ttlSeconds: reader.read('ARTIFACT_URL_TTL_SECONDS', wholeNumber(60, 7 * 24 * 60 * 60), '3600') ?? 3600,
      usingDevSecret: artifactSecret === DEV_ARTIFACT_URL_SECRET,
    },
    publicUrl: publicUrl ?? (port === 0 ? null : `http://${host}:${port}`),
    corsOrigins: corsOrigins ?? [],
    admin: {
      emails: reader.read('ADMIN_EMAILS', emailList) ?? [],
      sessionTtlSeconds: reader.read('ADMIN_SESSION_TTL_SECONDS', wholeNumber(60, 24 * 60 * 60), '900') ?? 900,
    },
    sessionTtlSeconds: reader.read('SESSION_TTL_SECONDS', wholeNumber(60, 14 * 24 * 60 * 60), '3600') ?? 3600,
    metricsToken,
    shutdownGraceMs: reader.read('SHUTDOWN_GRACE_MS', wholeNumber(0, 10 * 60 * 1000), '30000') ?? 30_000,
    supportMail: readSupportMailSettings(reader, common.mode, { requiredInProduction: true }),
    billing: readBillingSettings(reader, development),
    limits: {
      maxInFlightPerUser: readMaxInFlightPerUser(reader),
      rateLimitPerMinute: reader.read('RATE_LIMIT_PER_MINUTE', wholeNumber(1, 100_000), '120') ?? 120,
      socketsPerUser: reader.read('SOCKETS_PER_USER', wholeNumber(1, 1000), '10') ?? 10,
      pendingSocketsPerAddress: reader.read('SOCKET_PENDING_PER_IP', wholeNumber(1, 10_000), '20') ?? 20,
      pendingSocketsMax: reader.read('SOCKET_PENDING_MAX', wholeNumber(1, 1_000_000), '1000') ?? 1000,
      supportRequestsPerHour: reader.read('SUPPORT_REQUESTS_PER_HOUR', wholeNumber(1, 10_000), '5') ?? 5,
      salesRequestsPerHour: reader.read('SALES_REQUESTS_PER_HOUR', wholeNumber(1, 10_000), '5') ?? 5,
    },
  };
  reader.finish('server');
  return config;
}

/**
 * firebase-admin switches to the emulator (which accepts unsigned tokens) whenever the variable is present,
 * even blank, so outside development its mere presence is refused.
 */
function readEmulatorHost(reader: EnvReader, development: boolean): string | null {
  const name = 'FIREBASE_AUTH_EMULATOR_HOST';
  if (!development) {
    if (reader.isPresent(name)) {
      reader.problem(
        `${name} must not be set unless ${MODE_VARIABLE}=development (the emulator accepts unsigned tokens)`,
      );
    }
    return null;
  }
  return reader.read(name, z.string().regex(/^[A-Za-z0-9.-]+:\d+$/, { error: 'must be host:port' })) ?? null;
}
