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
 * The same 429 status as a rate limit, for an account with no credit left
 * (https://platform.openai.com/docs/guides/error-codes/api-errors).
 */
export const insufficientQuota = () =>
  openAiError(INSUFFICIENT_QUOTA_MESSAGE, 'insufficient_quota', null, 'insufficient_quota');

export const speechFaultReplies: FaultReplies = {
  serverError,
  rateLimited: rateLimitReached,
  overLimit: () => ({ status: 429, body: rateLimitReached() }),
  insufficientQuota,
  // Claims to be audio but is not: what a client that trusts Content-Type would store.
  malformed: { contentType: 'audio/wav', body: 'this is not audio' },
};
