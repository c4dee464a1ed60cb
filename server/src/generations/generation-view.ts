import type { GenerationEvent, GenerationRecord } from '@mediagen/core';
import { MAX_PROGRESS_BEFORE_COMPLETION, type Generation, type QueuePosition } from '@mediagen/shared';
import type { Submission } from './submission';

/** What a transition leaves behind, whether read from the record or heard on the update channel. */
export type GenerationState = Pick<
  GenerationEvent,
  'id' | 'kind' | 'status' | 'version' | 'token' | 'paidCalls' | 'error' | 'artifact'
> & { createdAt: Date | string; updatedAt: Date | string; artifactExpiredAt: Date | string | null };

export interface ViewExtras {
  /** The latest progress a worker published for this version, if any. */
  progress?: number | undefined;
  queue?: QueuePosition | undefined;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The contract's `Generation`: what every GET and every `generation:update` carries. */
export function generationView(
  state: GenerationState,
  submission: Submission,
  artifactUrl: (key: string) => string,
  extras: ViewExtras = {},
): Generation {
  const progress =
    state.status === 'completed'
      ? 100
      : state.status === 'queued'
        ? 0
        : Math.min(MAX_PROGRESS_BEFORE_COMPLETION, Math.max(0, Math.round(extras.progress ?? 0)));
  const generation: Generation = {
    id: state.id,
    kind: state.kind,
    status: state.status,
    version: state.version,
    progress,
    token: state.token,
    // The same rule that settles a cancel (paid_calls = 0: refunded), so what the client says before a
    // cancel is what the cancel does.
    paidWorkStarted: state.paidCalls > 0,
    createdAt: iso(state.createdAt),
    updatedAt: iso(state.updatedAt),
    prompt: submission.prompt,
  };
  if (submission.speech !== undefined) generation.speech = submission.speech;
  if (state.status === 'completed' && state.artifact !== null) {
    generation.result = { url: artifactUrl(state.artifact.key), mimeType: state.artifact.mimeType };
  }
  if (state.status === 'completed' && state.artifactExpiredAt !== null) {
    generation.resultExpiredAt = iso(state.artifactExpiredAt);
  }
  if ((state.status === 'failed' || state.status === 'canceled') && state.error !== null) {
    generation.error = state.error;
  }
  if (state.status === 'queued' && extras.queue !== undefined) generation.queue = extras.queue;
  return generation;
}

/** A record as the state a transition announced (for replaying the record after a missed announcement). */
export function stateOfRecord(record: GenerationRecord): GenerationState {
  return {
    id: record.id,
    kind: record.kind,
    status: record.status,
    version: record.version,
    token: record.token,
    paidCalls: record.paidCalls,
    error: record.error,
    artifact: record.artifact === null ? null : { key: record.artifact.key, mimeType: record.artifact.mimeType },
    artifactExpiredAt: record.artifactExpiredAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
