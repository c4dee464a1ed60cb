import { ERROR_MESSAGES, type ErrorCode, type GenerationKind } from '@mediagen/shared';
import type { CallOutcome } from './providers/provider-calls';

/**
 * A failure with the spec's catalogue code and message. `retryable` sorts provider errors into
 * those worth another attempt (network, 429, 5xx) and those that can never succeed. The message is the
 * operators' (job, logs); what the creator reads is made from it by failure-report.ts.
 */
export class GenerationError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryable: boolean,
    /** How the provider call behind this error ended, for metrics; undefined when no call was involved. */
    readonly outcome?: CallOutcome,
    /** The provider's own answer carried in the message: it makes the message the operators' alone. */
    readonly detail?: string,
    /** Images of the set the provider filtered (CONTENT_FILTERED): their tokens come back. */
    readonly filtered?: number,
  ) {
    super(message);
    this.name = 'GenerationError';
  }

  static of(
    code: ErrorCode,
    options: { detail?: string; retryable: boolean; outcome?: CallOutcome; filtered?: number },
  ): GenerationError {
    return new GenerationError(
      code,
      ERROR_MESSAGES[code] + (options.detail ?? ''),
      options.retryable,
      options.outcome,
      options.detail,
      options.filtered,
    );
  }
}

export function canceledError(): GenerationError {
  return GenerationError.of('CANCELED', { retryable: false });
}

/**
 * shared/ has no code for a job that ran past its deadline; video has the spec's timeout message, the
 * others keep their kind's failure code with a message that says what happened.
 */
export function deadlineError(kind: GenerationKind): GenerationError {
  if (kind === 'video') return GenerationError.of('VIDEO_TIMED_OUT', { retryable: false });
  return new GenerationError(
    kind === 'image' ? 'IMAGE_FAILED' : 'SPEECH_FAILED',
    'Generation took too long - please try again',
    false,
  );
}

/** The generation already made as many provider calls that may cost money as it may (MAX_PAID_CALLS). */
export function callLimitError(kind: GenerationKind): GenerationError {
  return new GenerationError(
    kind === 'image' ? 'IMAGE_FAILED' : kind === 'video' ? 'VIDEO_GENERATION_FAILED' : 'SPEECH_FAILED',
    'Generation stopped: the provider could not finish it in the attempts allowed - please try again',
    false,
  );
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The provider made the image and withheld it (CONTENT_FILTERED): paid work, but the creator gets its
 * token back (README, "Token rules"). `images`: how many of the call's images were.
 */
export function filteredError(images: number): GenerationError {
  return GenerationError.of('IMAGE_NOT_GENERATED', { retryable: false, outcome: 'content_refused', filtered: images });
}

export function isFilteredError(error: unknown): error is GenerationError {
  return error instanceof GenerationError && error.filtered !== undefined && error.filtered > 0;
}
