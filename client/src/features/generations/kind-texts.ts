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
  /** Spec §4: only the image shows a loading toast while it is prepared. */
  preparing?: string;
  completed?: string;
  failedFallback: string;
}

export const KIND_TEXTS: Record<GenerationKind, KindTexts> = {
  image: {
    label: 'Image',
    preparing: 'Preparing to generate image...',
    completed: 'Image generated successfully!',
    failedFallback: ERROR_MESSAGES.IMAGE_FAILED,
  },
  video: { label: 'Video', failedFallback: ERROR_MESSAGES.VIDEO_GENERATION_FAILED },
  speech: {
    label: 'Speech',
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
