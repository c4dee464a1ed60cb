import {
  OPERATOR_ERROR_CODES,
  PROVIDER_OF_KIND,
  creatorFailureMessage,
  type CreatorFailureCause,
  type GenerationFailure,
  type GenerationKind,
} from '@mediagen/shared';
import type { GenerationError } from './generation-error';
import type { CallOutcome } from './providers/provider-calls';
import { maskSecrets } from './providers/mask-secrets';

/** Outcomes where the provider took the request and answered with nothing the creator can have. */
const NOT_MADE: ReadonlySet<CallOutcome> = new Set(['content_refused', 'malformed', 'strayed']);

function causeOf(outcome: CallOutcome | undefined): CreatorFailureCause {
  return outcome !== undefined && NOT_MADE.has(outcome) ? 'not_made' : 'unavailable';
}

/**
 * How a failure is recorded: a message that speaks to the key holder or carries the provider's words
 * (`OPERATOR_ERROR_CODES`, or any error with a provider `detail`) goes to the operators as
 * `providerError`, and the creator reads a plain message that goes on to say what became of their
 * token. A catalogue message that fits a creator (a failed render, a timeout, a refused text) stays
 * theirs. Whatever a provider call said is kept for operators either way, keys masked.
 */
export function failureReport(error: GenerationError, kind: GenerationKind): GenerationFailure {
  const forOperators = error.detail !== undefined || OPERATOR_ERROR_CODES.has(error.code);
  const providerError =
    forOperators || error.outcome !== undefined
      ? maskSecrets(`${PROVIDER_OF_KIND[kind]} ${error.outcome ?? 'answer'}: ${error.message}`)
      : undefined;
  const withProviderError = {
    ...(providerError === undefined ? {} : { providerError }),
    ...(error.filtered === undefined ? {} : { filteredImages: error.filtered }),
  };
  if (!forOperators) return { code: error.code, message: error.message, ...withProviderError };
  return {
    code: error.code,
    message: creatorFailureMessage(kind, causeOf(error.outcome)),
    tellsToken: true,
    ...withProviderError,
  };
}
