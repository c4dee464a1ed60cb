import type { FaultReplies } from '../faults/providerGate';

/** OpenAI's one error shape: { error: { message, type, param, code } }. */
export function openAiError(message: string, type: string, param: string | null = null, code: string | null = null) {
  return { error: { message, type, param, code } };
}

export const missingApiKeyError = () =>
  openAiError(
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    'invalid_request_error',
  );

export const rateLimitReached = () =>
  openAiError('Rate limit reached for requests. Please try again in 1s.', 'requests', null, 'rate_limit_exceeded');

export const SERVER_ERROR_MESSAGE = 'The server had an error while processing your request. Sorry about that!';
export const serverError = () => openAiError(SERVER_ERROR_MESSAGE, 'server_error');

export const INSUFFICIENT_QUOTA_MESSAGE =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';

/**
 * How OpenAI refuses an account that cannot pay, by code. The four billing codes of the help pages share
 * the type `insufficient_quota` and a 429
 * (https://help.openai.com/en/articles/6614457-troubleshooting-api-usage-and-spend-limits); an account
 * without active billing, and a terminated one, answer 429 with their own type; an older account past its
 * hard limit answered 400.
 */
export const BILLING_REFUSALS = {
  insufficient_quota: { status: 429, type: 'insufficient_quota', message: INSUFFICIENT_QUOTA_MESSAGE },
  credit_balance_exhausted: { status: 429, type: 'insufficient_quota', message: INSUFFICIENT_QUOTA_MESSAGE },
  organization_spend_limit_exceeded: { status: 429, type: 'insufficient_quota', message: INSUFFICIENT_QUOTA_MESSAGE },
  project_spend_limit_exceeded: { status: 429, type: 'insufficient_quota', message: INSUFFICIENT_QUOTA_MESSAGE },
  organization_usage_limit_exceeded: { status: 429, type: 'insufficient_quota', message: INSUFFICIENT_QUOTA_MESSAGE },
  billing_not_active: {
    status: 429,
    type: 'billing_not_active',
    message: 'Your account is not active, please check your billing details on our website.',
  },
  access_terminated: {
    status: 429,
    type: 'access_terminated',
    message:
      'Your access was terminated due to violation of our policies, please check your email for more information. If you believe this is in error and would like to appeal, please contact us through our help center at help.openai.com.',
  },
  billing_hard_limit_reached: {
    status: 400,
    type: 'invalid_request_error',
    message: 'Billing hard limit has been reached',
  },
} as const satisfies Record<string, { status: number; type: string; message: string }>;

export type BillingCode = keyof typeof BILLING_REFUSALS;
export const BILLING_CODES = Object.keys(BILLING_REFUSALS) as BillingCode[];

/** An account that cannot pay (`insufficient-quota`, by default the documented `insufficient_quota`). */
export function billingRefusal(code: BillingCode = 'insufficient_quota') {
  const { status, type, message } = BILLING_REFUSALS[code];
  return { status, body: openAiError(message, type, null, code) };
}

export const speechFaultReplies: FaultReplies = {
  serverError,
  rateLimited: rateLimitReached,
  overLimit: () => ({ status: 429, body: rateLimitReached() }),
  billingRefusal,
  // Claims to be audio but is not: what a client that trusts Content-Type would store.
  malformed: { contentType: 'audio/wav', body: 'this is not audio' },
};
