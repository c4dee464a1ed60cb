import { ERROR_MESSAGES, type ApiError, type ErrorCode } from './errors';
import type { GenerationKind } from './kinds';
import type { TokenState } from './tokens';

/**
 * The spec's catalogue was written for a browser app holding its own provider keys, so some of its
 * messages speak to whoever holds the key ("check your API key"), or carry the provider's own words
 * ("Stability AI error: " and its text). Here the keys are the operators': these codes' messages, and
 * any message that carries a provider's answer, go to the operators' views; the creator reads a plain
 * message instead (`creatorFailureMessage`).
 */
export const OPERATOR_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'IMAGE_PROVIDER_ERROR',
  'VIDEO_AUTH_FAILED',
  'VIDEO_START_FAILED',
  'VIDEO_POLL_FAILED',
  'VIDEO_URL_FAILED',
  'VIDEO_UNEXPECTED_STATUS',
]);

/** What became of the creator's token, as the message that ended their generation says it. */
export const TOKEN_ENDING_SENTENCES = {
  refunded: 'Your token was returned.',
  spent: 'Your token was used, as the work had already started.',
  waived: 'This retry used no token.',
} as const satisfies Record<Exclude<TokenState, 'held'>, string>;

/**
 * Why a provider failure ended the generation, in the creator's terms: the service could not reach or
 * use the provider (`unavailable`: refused keys, no credit, outages), or the provider took the request
 * and could not make something of it (`not_made`).
 */
export type CreatorFailureCause = 'unavailable' | 'not_made';

const KIND_LABELS: Record<GenerationKind, string> = { image: 'Image', video: 'Video', speech: 'Speech' };

/** The spec's own words for a kind that failed to render. */
const NOT_MADE: Record<GenerationKind, string> = {
  image: ERROR_MESSAGES.IMAGE_FAILED,
  video: ERROR_MESSAGES.VIDEO_FAILED,
  speech: ERROR_MESSAGES.SPEECH_FAILED,
};

/** The creator's message for an operator-side failure, before the sentence on their token. */
export function creatorFailureMessage(kind: GenerationKind, cause: CreatorFailureCause): string {
  return cause === 'unavailable' ? `${KIND_LABELS[kind]} generation is unavailable right now.` : `${NOT_MADE[kind]}.`;
}

/**
 * How a generation failed, as its ending records it: the creator's code and message, and for operators
 * only the provider's exact answer. `tellsToken`: the ending adds the sentence on what became of the
 * token (`TOKEN_ENDING_SENTENCES`), since only the ending knows it.
 */
export interface GenerationFailure extends ApiError {
  tellsToken?: boolean;
  /** The provider's answer (status, code, text), never a key; never shown to the creator. */
  providerError?: string;
  /** Images of the set the provider filtered: each one's token comes back, whatever else the ending decides. */
  filteredImages?: number;
}
