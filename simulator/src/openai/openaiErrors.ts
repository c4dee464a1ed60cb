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

export const speechFaultReplies: FaultReplies = {
  serverError: () =>
    openAiError('The server had an error while processing your request. Sorry about that!', 'server_error'),
  rateLimited: () =>
    openAiError('Rate limit reached for requests. Please try again in 1s.', 'requests', null, 'rate_limit_exceeded'),
  // Claims to be audio but is not: what a client that trusts Content-Type would store.
  malformed: { contentType: 'audio/wav', body: 'this is not audio' },
};
