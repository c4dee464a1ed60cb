/**
 * The spec's error catalogue (§5, §8) as codes with their messages. Parametric messages are
 * functions so callers cannot misspell the fixed part.
 */
export const ERROR_MESSAGES = {
  UNAUTHENTICATED: 'Please sign in to continue.',
  TOKEN_TOO_OLD: 'The ID token must be under 5 minutes old. Get a fresh one and try again.',
  REAUTHENTICATION_REQUIRED: 'For your security, confirm it is you: sign in again, then try again.',
  FORBIDDEN: 'You do not have access to this resource.',
  NOT_FOUND: 'Generation not found.',
  INVALID_REQUEST: 'Invalid request.',
  PAYLOAD_TOO_LARGE: 'Request body is too large.',
  IDEMPOTENCY_CONFLICT: 'This Idempotency-Key was already used for a different request.',
  ALREADY_FINISHED: 'This generation has already finished and can no longer be canceled.',
  TOO_MANY_IN_FLIGHT: 'You already have generations in progress. Please wait for one to finish.',
  RATE_LIMITED: 'Too many requests. Please slow down and try again shortly.',
  TOO_MANY_CONNECTIONS: 'Too many open connections for this account. Close another tab and try again.',
  NOT_READY: 'The service is temporarily unavailable. Please try again shortly.',
  INTERNAL: 'Something went wrong. Please try again.',
  CANCELED: 'Generation canceled.',
  ALREADY_ANSWERED: 'This support request was already answered.',
  CHECKOUT_UNAVAILABLE:
    'Checkout is unavailable right now. You have not been charged. Please try again in a few minutes.',
  NO_SUBSCRIPTION: 'There is no subscription to manage yet. Choose a plan on the Pricing page first.',
  WEBHOOK_REJECTED: 'The webhook event was refused.',
  API_KEY_NOT_ALLOWED: 'API keys cannot be used here: sign in to the web app to do this.',
  API_KEY_SCOPE_MISSING: 'This API key does not have the scope this request needs: ',
  NO_API_ACCESS: 'Your plan does not include API access. API keys work on the Enterprise plan.',
  TOO_MANY_API_KEYS: 'You have as many API keys as an account may hold. Revoke one to create another.',

  PROMPT_REQUIRED: 'Please enter a prompt',
  SPEECH_TEXT_REQUIRED: 'Please enter some text',
  SPEECH_OPTIONS_REQUIRED: 'Please select language and voice options',
  PROMPT_BLOCKED: 'Prompt contains inappropriate content: ',
  TOKENS_EXHAUSTED: 'Your free tokens are over.',
  PLAN_LIMIT: 'This request asks for more than your plan includes.',
  DAILY_LIMIT: "You have reached today's generation limit for your plan. It resets at midnight UTC.",

  IMAGE_NOT_GENERATED: 'No image was generated',
  IMAGE_PROVIDER_ERROR: 'Stability AI error: ',
  IMAGE_FAILED: 'Failed to generate image',
  IMAGE_DOWNLOAD_MISSING: 'No image available to download',

  VIDEO_INIT_FAILED: 'Failed to initialize video generation',
  VIDEO_FAILED: 'Video generation failed',
  VIDEO_DOWNLOAD_URL_FAILED: 'Failed to get video download URL',
  VIDEO_INVALID_RESPONSE: 'Invalid response from video generation service',
  VIDEO_AUTH_FAILED: 'Authentication failed - please check your API key',
  VIDEO_START_FAILED: 'Failed to start video generation: ',
  VIDEO_FAILED_ON_SERVER: 'Video generation failed on server',
  VIDEO_UNEXPECTED_STATUS: 'Unexpected status: ',
  VIDEO_TIMED_OUT: 'Video generation timed out - please try again',
  VIDEO_NO_DOWNLOAD_URL: 'No download URL available',
  VIDEO_URL_FAILED: 'Failed to get video URL: ',
  VIDEO_POLL_FAILED: 'Video generation failed: ',
  VIDEO_GENERATION_FAILED: 'Failed to generate video',

  SPEECH_FAILED: 'Failed to generate speech',
  AUDIO_PLAY_FAILED: 'Failed to play audio',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

export interface ApiError {
  code: ErrorCode;
  message: string;
}

export interface ErrorBody {
  error: ApiError;
}

export function apiError(code: ErrorCode, detail?: string): ApiError {
  return { code, message: detail === undefined ? ERROR_MESSAGES[code] : ERROR_MESSAGES[code] + detail };
}

export function tooManyInFlightMessage(count: number): string {
  return `You already have ${count} generations in progress. Please wait for one to finish.`;
}

export function blockedPromptMessage(words: readonly string[]): string {
  return ERROR_MESSAGES.PROMPT_BLOCKED + words.join(', ');
}

export function unexpectedVideoStatusMessage(status: string): string {
  return ERROR_MESSAGES.VIDEO_UNEXPECTED_STATUS + status;
}
