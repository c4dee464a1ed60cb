import {
  ERROR_MESSAGES,
  TOKEN_ENDING_SENTENCES,
  type Generation,
  type GenerationKind,
  type QueuePosition,
} from '@mediagen/shared';

interface KindTexts {
  /** Capitalised name, as in the reset toast '{Image|Video|Speech} content has been reset!'. */
  label: string;
  /** How a cancel's notice names a run whose paid provider work has begun. */
  started: string;
  /** Spec §4: only the image shows a loading toast while it is prepared. */
  preparing?: string;
  completed?: string;
  failedFallback: string;
}

export const KIND_TEXTS: Record<GenerationKind, KindTexts> = {
  image: {
    label: 'Image',
    started: 'The image is being made',
    preparing: 'Preparing to generate image...',
    completed: 'Image generated successfully!',
    failedFallback: ERROR_MESSAGES.IMAGE_FAILED,
  },
  video: { label: 'Video', started: 'The video has started', failedFallback: ERROR_MESSAGES.VIDEO_GENERATION_FAILED },
  speech: {
    label: 'Speech',
    started: 'The speech is being recorded',
    completed: 'Speech generated successfully!',
    failedFallback: ERROR_MESSAGES.SPEECH_FAILED,
  },
};

export function resetMessage(kind: GenerationKind): string {
  return `${KIND_TEXTS[kind].label} content has been reset!`;
}

export function progressMessage(kind: GenerationKind, progress: number): string {
  return `Generating ${kind}... ${progress}%`;
}

/**
 * 'Queued — #2 in line, about 20 s'; the estimate is left out while the server has none, and a queue held
 * back for now (spend controls) says so.
 */
export function queueMessage({ position, etaMs, busy }: QueuePosition): string {
  const place = position <= 1 ? 'Queued — next in line' : `Queued — #${position} in line`;
  if (busy === true) return `${place}. We're busy right now: it will start as soon as we can.`;
  return etaMs === null ? place : `${place}, about ${formatWait(etaMs)}`;
}

function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  return `${Math.round(seconds / 60)} min`;
}

/**
 * What became of the token of a generation that did not complete, in plain words: given back when no
 * paid provider work was done, used when the provider had already started (the README's token rules).
 * Nothing when the generation's own message already says it.
 */
export function tokenOutcomeMessage({ kind, status, token, error }: Generation): string | undefined {
  if (status === 'completed') return undefined;
  if (Object.values(TOKEN_ENDING_SENTENCES).some((sentence) => error?.message.endsWith(sentence))) return undefined;
  if (token === 'refunded') return `Your ${kind} token was given back.`;
  if (token === 'spent') return `Your ${kind} token was used: the provider had already started work on it.`;
  return undefined;
}

/**
 * What canceling now does to the token, said before the creator cancels: the README's token rules, read
 * from the view (`paidWorkStarted` is the rule that settles the cancel).
 */
export function cancelTokenNotice({ kind, token, paidWorkStarted }: Generation): string {
  if (token === 'waived') return 'This retry used no token: canceling stops it.';
  if (!paidWorkStarted) return 'Canceling now returns your token.';
  return `${KIND_TEXTS[kind].started}: canceling stops it, and the token stays spent.`;
}

/** What a cancel did to the token, from the API's answer. */
export function cancelOutcomeMessage({ kind, token }: Generation): string {
  switch (token) {
    case 'refunded':
      return `Your ${kind} token was returned.`;
    case 'spent':
      return `The ${kind} had started, so its token stays spent.`;
    case 'waived':
      return TOKEN_ENDING_SENTENCES.waived;
    case 'held':
      return 'Its token is still being settled.';
  }
}

/** After a cancel lost to the generation's own ending: how it ended. */
export function finishedFirstMessage(generation: Generation | undefined): string {
  if (generation === undefined) return ERROR_MESSAGES.ALREADY_FINISHED;
  if (generation.status === 'completed') return `Your ${generation.kind} is ready.`;
  return generation.error?.message ?? ERROR_MESSAGES.ALREADY_FINISHED;
}

/** Reset while it runs and kept: the panel is cleared, the work is not stopped. */
export function keptRunningMessage(kind: GenerationKind): string {
  return `${KIND_TEXTS[kind].label} panel cleared. It keeps running: find it in your library.`;
}
