import { randomUUID } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type {
  ContentCredentialsSummary,
  GenerationFailure,
  GenerationKind,
  ImageMissingReason,
  ImageRequest,
  SpeechFormat,
  SpeechModel,
  SpeechRequest,
  VideoRequest,
} from '@mediagen/shared';
import type { StoredArtifact } from '../artifacts/artifact-store';

/** What the record keeps as a generation's request, per kind: the validated body without its kind. */
export interface RequestByKind {
  /** The seed is chosen at submit, so every attempt asks for the same picture. */
  image: Omit<ImageRequest, 'kind'> & { seed: number };
  video: Omit<VideoRequest, 'kind'>;
  /**
   * The speech model in use at submit reads it, so what the creator was shown (the voice it is read with,
   * the speeds it takes) holds while it waits. Absent from records made before it was recorded (tts-1).
   */
  speech: Omit<SpeechRequest, 'kind' | 'format'> & { format?: SpeechFormat; model?: SpeechModel };
}

/**
 * A job names its generation (the job id is the generation id) and carries no personal data: the owner,
 * the prompt and the request are in the record, so deleting the record leaves nothing of the user here.
 */
export interface GenerationJobData {
  kind: GenerationKind;
  /** Video: polls made so far, and the file once the provider reports success. */
  polls?: number;
  fileId?: string;
  /** Video: the provider's task id, kept here as well as in the record: either lets a later run resume it. */
  taskId?: string;
  /** How the run ended when the record could not be told; the next attempt (or the reconciler) tells it. */
  outcome?: { completed: CompletedArtifact } | { failed: GenerationFailure };
  /**
   * Paid calls counted in the record that cost the owner nothing (refused before any work, or never sent),
   * whose give-back the record could not take: the next attempt or the reconciler gives them back before
   * it tells the record anything else, so the ending does not spend the token for them.
   */
  refusedCallsToGiveBack?: number;
  /**
   * An image set's images an earlier run finished (stored, or filtered by the provider), by their place in
   * the set: a later run (a retry, a takeover, a job back from waiting) makes only the others, so no image is
   * paid for twice. A run that ends without completing the set deletes the files named here that the record
   * does not hold.
   */
  imagesMade?: ImageMade[];
}

/** One image of a set finished by a run, at `index` (from 0) of the set. */
export interface ImageMade {
  index: number;
  output: CompletedOutput;
}

/** What a run stored: the original, and for output of a plan with the watermark, its marked copy too. */
export interface CompletedArtifact extends StoredArtifact {
  markedKey?: string | null;
  /** An image's seed. */
  seed?: number;
  /** What the C2PA manifests signed into the original and its marked copy say; absent when stored unsigned. */
  contentCredentials?: ContentCredentialsSummary;
  /**
   * An image set's every output in order, this one (the first file) among them; absent for one output.
   * Images not made (filtered, or failed for good) are listed without a file: their tokens come back when
   * the generation completes.
   */
  outputs?: CompletedOutput[];
}

/** One file of a set as stored: the original, its marked copy, the seed it was made with, its manifests' summary. */
export interface StoredOutput extends StoredArtifact {
  markedKey: string | null;
  seed?: number;
  contentCredentials?: ContentCredentialsSummary;
}

/**
 * An image of a set that was not made, no file, its token back: `missing` says why (ImageMissingReason). A
 * filtered one also carries `filtered: true`, the only mark records written before `missing` have.
 */
export type MissingOutput =
  { missing: 'filtered'; filtered: true; seed?: number } | { missing: 'failed'; seed?: number };

export type CompletedOutput = StoredOutput | MissingOutput;

/** A filtered image as sets were first recorded, before images could fail: read as `missing: 'filtered'`. */
export interface LegacyFilteredOutput {
  filtered: true;
  seed?: number;
}

export function isMissingOutput(output: object): output is MissingOutput | LegacyFilteredOutput {
  return 'missing' in output || 'filtered' in output;
}

/** Why an image of a set is missing, read from records of either shape. */
export function missingReasonOf(output: MissingOutput | LegacyFilteredOutput): ImageMissingReason {
  return 'missing' in output ? output.missing : 'filtered';
}

/** An image not made, as stored and announced: `seed` only when known. */
export function missingOutput(reason: ImageMissingReason, seed: number | undefined): MissingOutput {
  const withSeed = seed === undefined ? {} : { seed };
  return reason === 'filtered'
    ? { missing: 'filtered', filtered: true, ...withSeed }
    : { missing: 'failed', ...withSeed };
}

export function queueName(kind: GenerationKind): string {
  return `generation-${kind}`;
}

/** A random id, whatever the request: an Idempotency-Key maps to it in the record, not by derivation. */
export function newGenerationId(kind: GenerationKind): string {
  return `${kind}_${randomUUID().replaceAll('-', '')}`;
}

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

/** How long BullMQ keeps finished jobs for operators to inspect; the record keeps history on its own. */
export interface JobRetention {
  completedSeconds: number;
  failedSeconds: number;
}

/**
 * `priority`: the owner's plan's (PlanRules.queuePriority). Every job has one: BullMQ runs jobs without a
 * priority before all prioritized ones.
 */
export function generationJobOptions(
  id: string,
  retry: RetryPolicy,
  retention: JobRetention,
  priority: number,
): JobsOptions {
  return {
    jobId: id,
    priority,
    attempts: retry.attempts,
    backoff: { type: 'exponential', delay: retry.backoffMs },
    removeOnComplete: { age: retention.completedSeconds },
    removeOnFail: { age: retention.failedSeconds },
  };
}
