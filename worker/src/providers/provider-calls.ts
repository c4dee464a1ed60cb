/** The names the metrics and job logs use for providers, their calls and how a call ended. */
export const PROVIDERS = ['stability', 'minimax', 'openai'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const PROVIDER_CALLS = [
  'text_to_image',
  'video_start',
  'video_query',
  'file_retrieve',
  'file_download',
  'speech',
] as const;
export type ProviderCall = (typeof PROVIDER_CALLS)[number];

/**
 * - `http_4xx`: the provider refused the request (a 4xx other than 429, a MiniMax `base_resp` error, a
 *   content-filtered image).
 * - `malformed`: an answer the client cannot use (not JSON, missing fields, empty media).
 * - `aborted`: stopped by us (cancel, job deadline, shutdown hand-back), not by the provider.
 * - `circuit_open`: never sent, the provider's breaker is open.
 */
export const CALL_OUTCOMES = [
  'ok',
  'http_4xx',
  'http_5xx',
  'http_429',
  'network',
  'timeout',
  'malformed',
  'aborted',
  'circuit_open',
] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** Outcomes that say the provider is unwell; only these count towards opening its breaker. */
export const BREAKER_FAILURES: ReadonlySet<CallOutcome> = new Set(['http_5xx', 'network', 'timeout', 'malformed']);

export function outcomeOfStatus(status: number): CallOutcome {
  if (status === 429) return 'http_429';
  if (status >= 500) return 'http_5xx';
  if (status >= 400) return 'http_4xx';
  if (status >= 200 && status < 300) return 'ok';
  return 'malformed';
}

/**
 * The provider asks us to slow down (HTTP 429, MiniMax code 1002) or its breaker is open. Not a failure
 * of the job: the worker pauses that queue and puts the job back without using an attempt.
 */
export class ProviderBusyError extends Error {
  override readonly name = 'ProviderBusyError';

  constructor(
    readonly provider: ProviderName,
    readonly reason: 'rate_limited' | 'circuit_open',
    /** undefined: the provider gave no usable hint; the worker uses its default. */
    readonly retryAfterMs: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | string[] | null | undefined, now = Date.now()): number | undefined {
  const header = Array.isArray(value) ? value[0] : value;
  if (header === undefined || header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
