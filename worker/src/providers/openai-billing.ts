import { ERROR_MESSAGES } from '@mediagen/shared';
import { GenerationError } from '../generation-error';

/**
 * OpenAI's answers that say the account cannot pay, by `error.code` or `error.type`. The help pages list
 * `insufficient_quota` as the type of the four billing codes (no prepaid credit, the organization's or a
 * project's spend limit, the organization's usage limit), each a 429
 * (https://help.openai.com/en/articles/6614457-troubleshooting-api-usage-and-spend-limits); an account
 * with no active billing answers 429 `billing_not_active`, a terminated one 429 `access_terminated`, and
 * older accounts past their hard limit 400 `billing_hard_limit_reached`. Retrying restores nothing, so
 * none is retried or waited for as a rate limit: the job ends at once, its token returned.
 */
export const OPENAI_BILLING_CODES = [
  'insufficient_quota',
  'credit_balance_exhausted',
  'organization_spend_limit_exceeded',
  'project_spend_limit_exceeded',
  'organization_usage_limit_exceeded',
  'billing_not_active',
  'access_terminated',
  'billing_hard_limit_reached',
] as const;

const BILLING_CODES: ReadonlySet<string> = new Set(OPENAI_BILLING_CODES);

/** An OpenAI error as both the speech endpoint's client and the Realtime API report it. */
export interface OpenAIAnswer {
  status?: number | undefined;
  code?: string | null | undefined;
  type?: string | null | undefined;
  message?: string | null | undefined;
}

export function isBillingRefusal(answer: OpenAIAnswer): boolean {
  return BILLING_CODES.has(answer.code ?? '') || BILLING_CODES.has(answer.type ?? '');
}

/** The answer as operators read it: status, code (or type) and OpenAI's text. */
export function describeOpenAIAnswer(answer: OpenAIAnswer): string {
  const status = answer.status === undefined ? '' : `HTTP ${answer.status} `;
  return `${status}${answer.code ?? answer.type ?? 'error'}: ${answer.message ?? ''}`.trim();
}

/** The account cannot pay: the job ends now, and the provider did no work, so the token comes back. */
export function billingRefused(answer: OpenAIAnswer): GenerationError {
  const detail = `: OpenAI billing refused the call (${describeOpenAIAnswer(answer)})`;
  return new GenerationError(
    'SPEECH_FAILED',
    ERROR_MESSAGES.SPEECH_FAILED + detail,
    false,
    answer.status === 429 ? 'http_429' : 'http_4xx',
    detail,
  );
}

/**
 * The official client retries every 429 (spec §9), a billing refusal too, unless the answer says not to
 * (`x-should-retry: false`, which the client obeys): this fetch adds that to a billing refusal, so the
 * refusal comes back at once and no request is sent in vain.
 */
export function noRetryOnBillingRefusal(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 429) return response;
    const text = await response.text();
    const headers = new Headers(response.headers);
    // The body is read (and decoded) already.
    headers.delete('content-encoding');
    headers.delete('content-length');
    if (isBillingRefusal(errorOfBody(text))) headers.set('x-should-retry', 'false');
    return new Response(text, { status: response.status, statusText: response.statusText, headers });
  };
}

function errorOfBody(text: string): OpenAIAnswer {
  try {
    const { error } = JSON.parse(text) as { error?: OpenAIAnswer };
    return error ?? {};
  } catch {
    return {};
  }
}
