import type { EventOutput, GenerationEvent } from '../lifecycle/generation-events';
import type { GenerationRecord } from '../lifecycle/generation-record';
import { isMissingOutput, missingReasonOf } from '../queue/generation-jobs';
import {
  MAX_PROGRESS_BEFORE_COMPLETION,
  type ContentCredentialsSummary,
  type Generation,
  type GenerationOutput,
  type QueuePosition,
} from '@mediagen/shared';
import type { Submission } from './submission';

/** What a transition leaves behind, whether read from the record or heard on the update channel. */
export type GenerationState = Pick<
  GenerationEvent,
  'id' | 'kind' | 'status' | 'version' | 'token' | 'paidCalls' | 'error' | 'artifact' | 'tokenCount' | 'tokensReturned'
> & { outputs: EventOutput[] | null } & {
  createdAt: Date | string;
  updatedAt: Date | string;
  artifactExpiredAt: Date | string | null;
};

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
    tokenCount: state.tokenCount,
    tokensReturned: state.tokensReturned,
  };
  if (submission.speech !== undefined) generation.speech = submission.speech;
  if (submission.image !== undefined) generation.image = submission.image;
  if (state.status === 'completed' && state.artifact !== null) {
    // `result` stays the first file, for clients that read one; `outputs` is every output of a set.
    generation.result = {
      url: artifactUrl(state.artifact.key),
      mimeType: state.artifact.mimeType,
      ...credentialsOf(state.artifact),
    };
    const seed = submission.image === undefined ? {} : { seed: submission.image.seed };
    generation.outputs =
      state.outputs === null || state.outputs.length === 0
        ? [{ ...generation.result, ...seed }]
        : state.outputs.map((output) => outputView(output, artifactUrl));
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

function outputView(output: EventOutput, artifactUrl: (key: string) => string): GenerationOutput {
  const seed = output.seed === undefined ? {} : { seed: output.seed };
  if (isMissingOutput(output)) {
    return missingReasonOf(output) === 'filtered'
      ? { missing: 'filtered', filtered: true, ...seed }
      : { missing: 'failed', ...seed };
  }
  return { url: artifactUrl(output.key), mimeType: output.mimeType, ...seed, ...credentialsOf(output) };
}

/** A file's Content Credentials, as the contract leaves them out of an unsigned one. */
function credentialsOf(file: { contentCredentials?: ContentCredentialsSummary | null }): {
  contentCredentials?: ContentCredentialsSummary;
} {
  const credentials = file.contentCredentials ?? null;
  return credentials === null ? {} : { contentCredentials: credentials };
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
    artifact:
      record.artifact === null
        ? null
        : {
            key: record.artifact.key,
            mimeType: record.artifact.mimeType,
            contentCredentials: record.artifact.contentCredentials ?? null,
          },
    tokenCount: record.tokenCount,
    tokensReturned: record.tokensReturned,
    // As announced: a set's every output, none for a generation of one file (`artifact` is it).
    outputs:
      record.outputs.length > 1 || record.outputs.some(isMissingOutput)
        ? record.outputs.map((output) =>
            isMissingOutput(output)
              ? output
              : {
                  key: output.key,
                  mimeType: output.mimeType,
                  ...(output.seed === undefined ? {} : { seed: output.seed }),
                  ...credentialsOf(output),
                },
          )
        : null,
    artifactExpiredAt: record.artifactExpiredAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
