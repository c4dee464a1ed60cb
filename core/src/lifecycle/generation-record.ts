import type {
  ApiError,
  ContentCredentialsSummary,
  GenerationKind,
  GenerationStatus,
  TokenState,
} from '@mediagen/shared';
import type { StoredArtifact } from '../artifacts/artifact-store';
import type { GenerationRow } from '../db/schema';
import { isMissingOutput, missingOutput, missingReasonOf, type CompletedOutput } from '../queue/generation-jobs';

export interface RecordedArtifact extends StoredArtifact {
  markedKey: string | null;
  /** What the C2PA manifests of the file and its marked copy say; absent when stored unsigned. */
  contentCredentials?: ContentCredentialsSummary;
}

/** Every stored file of an artifact: the original and its marked copy, if any. */
export function artifactKeys(artifact: RecordedArtifact | null): string[] {
  if (artifact === null) return [];
  return artifact.markedKey === null ? [artifact.key] : [artifact.key, artifact.markedKey];
}

/** Every stored file of a generation's outputs (an image set's every image, each with its marked copy). */
export function outputKeys(generation: Pick<GenerationRecord, 'artifact' | 'outputs'>): string[] {
  const keys = new Set(artifactKeys(generation.artifact));
  for (const output of generation.outputs) {
    if (isMissingOutput(output)) continue;
    keys.add(output.key);
    if (output.markedKey !== null) keys.add(output.markedKey);
  }
  return [...keys];
}

/** The files an `outputs` column (or a job's completed outcome) names, originals and marked copies. */
export function keysOfOutputs(outputs: readonly CompletedOutput[] | null | undefined): string[] {
  return (outputs ?? []).flatMap((output) =>
    isMissingOutput(output) ? [] : output.markedKey === null ? [output.key] : [output.key, output.markedKey],
  );
}

/** A generation as the record holds it. */
export interface GenerationRecord {
  id: string;
  uid: string;
  kind: GenerationKind;
  status: GenerationStatus;
  version: number;
  request: Record<string, unknown>;
  prompt: string;
  token: TokenState;
  /** Tokens charged together at submit (one per image of a set) and how many the ending gave back. */
  tokenCount: number;
  tokensReturned: number;
  paidCalls: number;
  providerTaskId: string | null;
  /** `markedKey`: the copy with the product mark, for owners whose plan has the watermark. */
  artifact: RecordedArtifact | null;
  /**
   * Every output in order: the one artifact of a video or speech, an image set's images (those not made,
   * filtered or failed, without a file). Empty before completion and once retention deleted the files.
   */
  outputs: CompletedOutput[];
  /** When retention deleted the artifact of this completed generation. */
  artifactExpiredAt: Date | null;
  /** What the creator reads of a failure. */
  error: ApiError | null;
  /** The provider's answer behind a failure: operators' views only (never the API, the socket or the client). */
  providerError: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  providerStartedAt: Date | null;
  finishedAt: Date | null;
  /** The submission's W3C traceparent when it was traced (tracing/spans.ts): its trace id finds its trace. */
  traceParent: string | null;
}

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/**
 * From a row as pg returns it, or as `row_to_json` gives it inside a statement (timestamps as strings,
 * the request already parsed).
 */
export function toRecord(row: GenerationRow | Record<string, unknown>): GenerationRecord {
  const r = row as GenerationRow & { request: Record<string, unknown> | string };
  return {
    id: r.id,
    uid: r.uid,
    kind: r.kind,
    status: r.status,
    version: r.version,
    request: typeof r.request === 'string' ? (JSON.parse(r.request) as Record<string, unknown>) : r.request,
    prompt: r.prompt,
    token: r.token,
    tokenCount: r.token_count,
    tokensReturned: r.tokens_returned,
    paidCalls: r.paid_calls,
    providerTaskId: r.provider_task_id,
    artifact: firstFileOf(r),
    outputs: outputsOf(r),
    artifactExpiredAt: date(r.artifact_expired_at ?? null),
    error: r.error_code === null ? null : ({ code: r.error_code, message: r.error_message ?? '' } as ApiError),
    providerError: r.provider_error ?? null,
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at)!,
    startedAt: date(r.started_at),
    providerStartedAt: date(r.provider_started_at),
    finishedAt: date(r.finished_at),
    traceParent: r.trace_parent ?? null,
  };
}

/** The first file (a set's first image), from `artifact_key` and its neighbours. */
function firstFileOf(r: GenerationRow): RecordedArtifact | null {
  if (r.artifact_key === null) return null;
  const credentials = r.content_credentials ?? null;
  return {
    key: r.artifact_key,
    mimeType: r.artifact_mime ?? 'application/octet-stream',
    bytes: Number(r.artifact_bytes ?? 0),
    markedKey: r.marked_artifact_key ?? null,
    ...(credentials === null ? {} : { contentCredentials: credentials }),
  };
}

function outputsOf(r: GenerationRow): CompletedOutput[] {
  const first = firstFileOf(r);
  if (first === null) return [];
  const listed = typeof r.outputs === 'string' ? (JSON.parse(r.outputs) as unknown[]) : r.outputs;
  // A set recorded before images could fail marks a filtered one with `filtered: true` alone.
  if (Array.isArray(listed) && listed.length > 0) {
    return (listed as CompletedOutput[]).map((output) =>
      isMissingOutput(output) ? missingOutput(missingReasonOf(output), output.seed) : output,
    );
  }
  return [first];
}
