import type { FastifyInstance } from 'fastify';

export interface SimulatorOptions {
  /** Added to every provider response. Default 0. */
  latencyMs?: number;
  /** How long a video task reports "Queueing". Default 1000. */
  videoQueueingMs?: number;
  /** How long it then reports "Processing" before "Success". Default 3000. */
  videoProcessingMs?: number;
  /** Faults active from the start, in priority order. */
  faults?: FaultRule[];
  /**
   * The request limits enforced per API key. Default DOCUMENTED_RATE_LIMITS (Stability's, the same for
   * every account); `off` enforces none. MiniMax's and OpenAI's depend on the account's tier.
   */
  rateLimits?: RateLimits | 'off';
  logger?: boolean;
}

export const RATE_LIMITED_PROVIDERS = ['stability', 'minimax', 'openai'] as const;
export type RateLimitedProvider = (typeof RATE_LIMITED_PROVIDERS)[number];

/** At most `max` requests per key in any `windowMs`; past that the key is refused for `lockoutMs`. */
export interface RateLimitRule {
  max: number;
  windowMs: number;
  lockoutMs: number;
}
export type RateLimits = Partial<Record<RateLimitedProvider, RateLimitRule>>;

/**
 * Stability: "150 requests per 10 seconds. Exceeding this limit results in a 429 response, followed by a
 * timeout lasting 60 seconds" (https://stabilityplatform.freshdesk.com/support/solutions/articles/150000186026).
 */
export const DOCUMENTED_RATE_LIMITS: RateLimits = { stability: { max: 150, windowMs: 10_000, lockoutMs: 60_000 } };

export const FAULT_KINDS = [
  'http500',
  'http429',
  'hang',
  'drop',
  'fail-status',
  'unknown-status',
  'malformed',
  'minimax-code',
  'content-filtered',
  'insufficient-quota',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const PROVIDER_ROUTES = [
  'image',
  'video.create',
  'video.query',
  'video.file',
  'video.download',
  'speech',
] as const;
export type ProviderRoute = (typeof PROVIDER_ROUTES)[number];

export interface FaultRule {
  route: ProviderRoute;
  fault: FaultKind;
  /** How many matching requests it affects. Default: every one (Infinity). */
  times?: number;
  /** For http429, sent as the Retry-After header. Default 1. */
  retryAfterSeconds?: number;
  /** For unknown-status, the status to report. Default "Mystery". */
  status?: string;
  /** For minimax-code, the `base_resp.status_code` to answer with (MiniMax's error code table). */
  code?: number;
}

export interface SimulatorStats {
  requests: Record<ProviderRoute, number>;
  videoTasksCreated: number;
  /** Requests refused by the enforced rate limits (not by http429 faults). */
  rateLimited: Record<ProviderRoute, number>;
  /** Times a key went over its limit and was locked out. */
  lockouts: number;
}

export interface Simulator {
  app: FastifyInstance;
  /** The base URL; only known once listen() has resolved. */
  readonly url: string;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  injectFault(rule: FaultRule): void;
  clearFaults(): void;
  stats(): SimulatorStats;
}
