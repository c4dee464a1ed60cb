import { randomUUID } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type {
  GenerationFailure,
  GenerationKind,
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
}

/** What a run stored: the original, and for output of a plan with the watermark, its marked copy too. */
export interface CompletedArtifact extends StoredArtifact {
  markedKey?: string | null;
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
