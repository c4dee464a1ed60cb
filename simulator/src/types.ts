import type { BillingCode } from './openai/openaiErrors';
import type { FastifyInstance } from 'fastify';
import type { StripeControl, StripeOptions } from './stripe/stripeStandIn';

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
  /**
   * The certificate and key (PEM) of the TLS server listen() starts for the OpenAI Realtime API over
   * `wss://`. Default: one made at listen() for localhost, 127.0.0.1, ::1 and the host it listens on.
   */
  tls?: { key: string; cert: string };
  /** The TLS server's port. Default 0: a random free port. */
  tlsPort?: number;
  /**
   * How many times faster than real time a Realtime response streams its audio. Default 200 (a
   * 200-second reading streams in about a second); 1 streams it as fast as it would play.
   */
  realtimeSpeedup?: number;
  /** The Stripe stand-in's prices, accepted key and webhook endpoint (simulator/README.md, "Stripe"). */
  stripe?: StripeOptions;
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
  'untyped-video',
  'minimax-code',
  'content-filtered',
  'insufficient-quota',
  'insufficient-balance',
  'rate-limit',
  'stray',
  'answer',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const PROVIDER_ROUTES = [
  'image',
  'upscale',
  'balance',
  'video.create',
  'video.query',
  'video.file',
  'video.download',
  'speech',
  'realtime.connect',
  'realtime.response',
  'stripe.customers',
  'stripe.prices',
  'stripe.checkout',
  'stripe.portal',
  'stripe.subscriptions',
  'stripe.invoices',
] as const;
export type ProviderRoute = (typeof PROVIDER_ROUTES)[number];

export interface FaultRule {
  route: ProviderRoute;
  fault: FaultKind;
  /** How many matching requests it affects. Default: every one (Infinity). */
  times?: number;
  /**
   * How many matching requests it lets through untouched before it applies (the third call of a set:
   * `after: 2`). Default 0.
   */
  after?: number;
  /** For http429, sent as the Retry-After header; for rate-limit, the seconds to wait. Default 1. */
  retryAfterSeconds?: number;
  /** For unknown-status, the status to report. Default "Mystery". */
  status?: string;
  /** For minimax-code, the `base_resp.status_code` to answer with (MiniMax's error code table). */
  code?: number;
  /** For insufficient-quota, the OpenAI billing code to refuse with. Default `insufficient_quota`. */
  billingCode?: BillingCode;
  /**
   * For content-filtered on v1's `image` route: which samples of the answer (from 0) are filtered, so one
   * image of a set can be. Default: every one. (v2beta makes one image a call: `times: 1` filters one.)
   */
  samples?: number[];
}

export interface SimulatorStats {
  requests: Record<ProviderRoute, number>;
  videoTasksCreated: number;
  /** Requests refused by the enforced rate limits (not by http429 faults). */
  rateLimited: Record<ProviderRoute, number>;
  /** Times a key went over its limit and was locked out. */
  lockouts: number;
}

/** One Realtime response, as the simulated model saw and answered it. */
export interface RealtimeResponseRecord {
  id: string;
  /** The instructions in force: the response's own, else the session's. */
  instructions: string;
  /** The text it was given to read, after the `<text>` extraction. */
  text: string;
  /** What it said (or wrote, for a text response), as far as it got. */
  transcript: string;
  /** `in_progress` until response.done, and for ever after a drop or hang. */
  status: 'in_progress' | 'completed' | 'cancelled' | 'failed' | 'incomplete';
  /** Seconds of audio sent. */
  audioSeconds: number;
}

/** One Realtime session (one WebSocket), with its configuration as it is now. */
export interface RealtimeSessionRecord {
  id: string;
  model: string;
  voice: string;
  speed: number;
  /** The output audio format's type: `audio/pcm`, `audio/pcmu` or `audio/pcma`. */
  outputFormat: string;
  /** The session's instructions. */
  instructions: string;
  responses: RealtimeResponseRecord[];
}

/**
 * What one accepted POST /v1/video_generation asked for, as sent (absent fields stay absent), so a test
 * can check the model, resolution and length a video went out with.
 */
export interface VideoTaskRecord {
  taskId: string;
  model: string;
  prompt: string | undefined;
  duration: number | undefined;
  resolution: string | undefined;
  promptOptimizer: boolean | undefined;
  fastPretreatment: boolean | undefined;
}

export interface Simulator {
  app: FastifyInstance;
  /** The base URL; only known once listen() has resolved. */
  readonly url: string;
  /** The TLS base URL of the Realtime API (`https://host:port`); only known once listen() has resolved. */
  readonly secureUrl: string;
  /** The certificate (PEM) the Realtime API's TLS server presents: what a client pins as `ca`. */
  readonly certificate: string;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  injectFault(rule: FaultRule): void;
  clearFaults(): void;
  stats(): SimulatorStats;
  /** The last 200 Realtime sessions, oldest first. */
  realtimeSessions(): RealtimeSessionRecord[];
  /** The last 200 text-to-image (v1) requests Stability would have rendered, oldest first. */
  imageRequests(): ImageRequestRecord[];
  /** The last 200 Stability v2beta requests it accepted, oldest first. */
  stableImageRequests(): StableImageRequestRecord[];
  /** The last 200 video tasks created, oldest first: what each was asked for. */
  videoTasks(): VideoTaskRecord[];
  /** The Stripe stand-in's webhooks, events, checkout completion and billing clock. */
  stripe: StripeControl;
}

/** A text-to-image request as the simulated Stability read it: its weighted prompts and what shapes the picture. */
export interface ImageRequestRecord {
  engine: string;
  textPrompts: { text: string; weight: number }[];
  width: number;
  height: number;
  samples: number;
  seed: number;
}

/** What a Stability v2beta request asked for, as the form sent it (the fields it left out are absent). */
export interface StableImageRequestRecord {
  /** `generate/core`, `generate/sd3`, `generate/ultra` or `upscale/fast`. */
  endpoint: string;
  model?: string;
  prompt?: string;
  negative_prompt?: string;
  aspect_ratio?: string;
  style_preset?: string;
  seed?: number;
  output_format: string;
  accept: string;
  /** The upscaler's input image. */
  image?: { width: number; height: number };
}
