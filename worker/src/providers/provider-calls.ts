/** The names the metrics and job logs use for providers' calls and how a call ended. */
import type { ProviderName } from '@mediagen/shared';

export { PROVIDERS, type ProviderName } from '@mediagen/shared';

export const PROVIDER_CALLS = [
  'text_to_image',
  'image_upscale',
  'video_start',
  'video_query',
  'file_retrieve',
  'file_download',
  'speech',
] as const;
export type ProviderCall = (typeof PROVIDER_CALLS)[number];

/**
 * - `http_4xx`: the provider refused the request (a 4xx other than 429, a MiniMax `base_resp` error such
 *   as invalid parameters, authentication or balance).
 * - `http_429`: the provider said slow down (HTTP 429, MiniMax 1002), or the 429 of an account out of
 *   credit (OpenAI's `insufficient_quota`, Stability's `insufficient_balance`).
 * - `content_refused`: the provider accepted the request, then refused the content (Stability
 *   CONTENT_FILTERED, MiniMax 1026/1027 sensitive content, a MiniMax task that ends `Fail`): it may have
 *   charged for the work.
 * - `malformed`: an answer the client cannot use (not JSON, missing fields, empty media).
 * - `strayed`: the provider answered with other than what was asked (a Realtime reading whose transcript
 *   strays from the text, twice): paid work, but not the creator's to pay for.
 * - `network`: the connection was lost after the request went out; `unreachable`: it never connected.
 * - `aborted`: stopped by us (cancel, job deadline, shutdown hand-back), not by the provider.
 * - `circuit_open`: never sent, the provider's breaker is open.
 * - `throttled`: never sent, the shared provider rate limiter had no free slot.
 * - `held_back`: never sent, a spend budget is reached, the kill switch is on or the account is out of credit.
 */
export const CALL_OUTCOMES = [
  'ok',
  'http_4xx',
  'http_5xx',
  'http_429',
  'content_refused',
  'network',
  'unreachable',
  'timeout',
  'malformed',
  'strayed',
  'aborted',
  'circuit_open',
  'throttled',
  'held_back',
] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/**
 * Whether a call that ended this way may have made the provider do paid work. Only a refusal the provider
 * answered before working (4xx, 5xx, 429), a call never sent (open breaker) or one that never connected
 * cost nothing; a success, an unusable answer, a timeout or a connection lost after sending, and our own
 * abort mid-call, all may have.
 */
export function mayHaveDonePaidWork(outcome: CallOutcome): boolean {
  return !NO_PAID_WORK.has(outcome);
}
const NO_PAID_WORK: ReadonlySet<CallOutcome> = new Set([
  'http_4xx',
  'http_5xx',
  'http_429',
  'circuit_open',
  'unreachable',
]);

/**
 * Whether the creator pays for a call that ended this way: for paid work, unless the work was not what
 * they asked for (a reading that strayed from their text is ours to absorb).
 */
export function ownerPaysFor(outcome: CallOutcome): boolean {
  return mayHaveDonePaidWork(outcome) && outcome !== 'strayed';
}

/** Outcomes that say the provider is unwell; only these count towards opening its breaker. */
export const BREAKER_FAILURES: ReadonlySet<CallOutcome> = new Set([
  'http_5xx',
  'network',
  'unreachable',
  'timeout',
  'malformed',
]);

export function outcomeOfStatus(status: number): CallOutcome {
  if (status === 429) return 'http_429';
  if (status >= 500) return 'http_5xx';
  if (status >= 400) return 'http_4xx';
  if (status >= 200 && status < 300) return 'ok';
  return 'malformed';
}

/**
 * Why a provider call cannot go out now:
 * - `rate_limited`: the provider asked us to slow down (HTTP 429, MiniMax code 1002);
 * - `throttled`: our own shared rate limiter has no free slot, or the provider's lockout is running;
 * - `circuit_open`: the provider's breaker is open;
 * - `budget`, `kill_switch`: our own spend controls hold paid calls back (core/src/spend);
 * - `out_of_credit`: the provider's account ran out of credit; held until it has some again.
 */
export type BusyReason = 'rate_limited' | 'throttled' | 'circuit_open' | 'budget' | 'kill_switch' | 'out_of_credit';

/**
 * The provider cannot take the call now. Not a failure of the job: the worker pauses that queue and
 * puts the job back without using an attempt.
 */
export class ProviderBusyError extends Error {
  override readonly name = 'ProviderBusyError';

  constructor(
    readonly provider: ProviderName,
    readonly reason: BusyReason,
    /** undefined: the provider gave no usable hint; the worker uses its default. */
    readonly retryAfterMs: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Paid provider work (a video task, its file) could not be read this time: a lost connection, a 5xx, a
 * "retry later" or limit code, an answer that does not parse. Not a failure of the job: it asks again
 * after its poll interval, without using an attempt, until its window or deadline ends.
 */
export class AskAgainLater extends Error {
  override readonly name = 'AskAgainLater';

  constructor(
    message: string,
    readonly outcome: CallOutcome,
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
