import { ERROR_MESSAGES, type ErrorCode } from '@mediagen/shared';

/**
 * A failure with the spec's catalogue code and message. `retryable` sorts provider errors into
 * those worth another attempt (network, 429, 5xx) and those that can never succeed.
 */
export class GenerationError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'GenerationError';
  }

  static of(code: ErrorCode, options: { detail?: string; retryable: boolean }): GenerationError {
    return new GenerationError(code, ERROR_MESSAGES[code] + (options.detail ?? ''), options.retryable);
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
