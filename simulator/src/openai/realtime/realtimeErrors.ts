import { BILLING_REFUSALS, SERVER_ERROR_MESSAGE, type BillingCode } from '../openaiErrors';
import type { RealtimeServerEvent, RealtimeStatusDetails } from './realtimeEvents';

/** What is wrong with a client event, in the fields of an `invalid_request_error`. */
export interface RealtimeProblem {
  message: string;
  param: string | null;
  code: string | null;
}

export function isRealtimeProblem(value: unknown): value is RealtimeProblem {
  return typeof value === 'object' && value !== null && 'message' in value && 'code' in value && 'param' in value;
}

/**
 * The `error` event for a client event the API refuses; `clientEventId` echoes the client's `event_id`
 * (RealtimeError.event_id), so a client can tell which of its events failed.
 */
export function invalidRequestEvent(problem: RealtimeProblem, clientEventId: string | null): RealtimeServerEvent {
  return { type: 'error', error: { type: 'invalid_request_error', ...problem, event_id: clientEventId } };
}

export const problems = {
  invalidType: (param: string, value: unknown, expected: string): RealtimeProblem => ({
    message: `Invalid type for '${param}': expected ${expected}, but got ${describeType(value)} instead.`,
    param,
    code: 'invalid_type',
  }),
  invalidValue: (param: string, value: unknown, supported: readonly unknown[]): RealtimeProblem => ({
    message: `Invalid value: ${quote(value)}. Supported values are: ${supported.map(quote).join(', ')}.`,
    param,
    code: 'invalid_value',
  }),
  outOfRange: (param: string, value: number, min: number, max: number): RealtimeProblem => ({
    message: `Invalid value for '${param}': ${value}. Expected a value from ${min} to ${max}.`,
    param,
    code: 'invalid_value',
  }),
  missing: (param: string): RealtimeProblem => ({
    message: `Missing required parameter: '${param}'.`,
    param,
    code: 'missing_required_parameter',
  }),
  unknownParameter: (param: string): RealtimeProblem => ({
    message: `Unknown parameter: '${param}'.`,
    param,
    code: 'unknown_parameter',
  }),
};

/** The reason a response ends `failed` (RealtimeResponseStatus with `error`). */
export const responseFailures = {
  /**
   * A tokens-per-minute refusal in the words OpenAI uses for one; the wait is also what
   * rate_limits.updated reports as `reset_seconds`.
   */
  rateLimited: (model: string, retryAfterSeconds: number, requestedTokens: number): RealtimeStatusDetails => ({
    type: 'failed',
    error: {
      type: 'tokens',
      code: 'rate_limit_exceeded',
      message: `Rate limit reached for ${model} in organization org-simulator on tokens per min (TPM): Limit ${TOKENS_PER_MINUTE}, Used ${TOKENS_PER_MINUTE}, Requested ${requestedTokens}. Please try again in ${describeWait(retryAfterSeconds)}. Visit https://platform.openai.com/account/rate-limits to learn more.`,
    },
  }),
  /** An account that cannot pay, by its billing code (BILLING_REFUSALS). */
  billingRefused: (code: BillingCode = 'insufficient_quota'): RealtimeStatusDetails => ({
    type: 'failed',
    error: { type: BILLING_REFUSALS[code].type, code, message: BILLING_REFUSALS[code].message },
  }),
  serverError: (): RealtimeStatusDetails => ({
    type: 'failed',
    error: { type: 'server_error', code: 'server_error', message: SERVER_ERROR_MESSAGE },
  }),
};

/** The account limits rate_limits.updated reports (the tokens one is the refusal's `Limit`). */
export const REQUESTS_PER_MINUTE = 1000;
export const TOKENS_PER_MINUTE = 40_000;

/** OpenAI writes waits under a second in milliseconds ("try again in 245ms"), longer ones in seconds. */
function describeWait(seconds: number): string {
  return seconds < 1 ? `${Math.round(seconds * 1000)}ms` : `${Number(seconds.toFixed(3))}s`;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}
