import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import {
  GENERATION_KINDS,
  type GenerationKind,
  type ImageRequest,
  type SpeechRequest,
  type VideoRequest,
} from '@mediagen/shared';

export interface RequestByKind {
  image: Omit<ImageRequest, 'kind'> & { seed: number };
  video: Omit<VideoRequest, 'kind'>;
  speech: Omit<SpeechRequest, 'kind'>;
}

/** Saved by the video processor before polling, so a retried job resumes the same provider task. */
export interface VideoProgressState {
  taskId?: string;
  fileId?: string;
  polls?: number;
}

export interface GenerationJobData<K extends GenerationKind = GenerationKind> {
  uid: string;
  kind: K;
  request: RequestByKind[K];
  createdAt: number;
  /** When a worker first took the job; the job deadline counts from here across polls and retries. */
  startedAt?: number;
  video?: VideoProgressState;
  /** Set by the worker when a job fails for good, so readers get the catalogue code and message. */
  error?: { code: string; message: string };
}

export interface GenerationJobResult {
  artifactKey: string;
  mimeType: string;
  bytes: number;
}

export type AnyGenerationJobData = { [K in GenerationKind]: GenerationJobData<K> }[GenerationKind];

export function queueName(kind: GenerationKind): string {
  return `generation-${kind}`;
}

/** The job id starts with the kind, so a lookup by id knows which queue to read without an index. */
export function newGenerationId(kind: GenerationKind): string {
  return `${kind}_${randomUUID().replaceAll('-', '')}`;
}

/** Same user and same Idempotency-Key give the same id, so a repeated request cannot create a second job. */
export function idempotentGenerationId(kind: GenerationKind, uid: string, idempotencyKey: string): string {
  const digest = createHash('sha256').update(`${uid}\n${idempotencyKey}`).digest('hex').slice(0, 32);
  return `${kind}_${digest}`;
}

export function kindOfGenerationId(id: string): GenerationKind | null {
  const prefix = id.slice(0, id.indexOf('_'));
  return (GENERATION_KINDS as readonly string[]).includes(prefix) ? (prefix as GenerationKind) : null;
}

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

const DAY_SECONDS = 24 * 60 * 60;

export function generationJobOptions(id: string, retry: RetryPolicy): JobsOptions {
  return {
    jobId: id,
    attempts: retry.attempts,
    backoff: { type: 'exponential', delay: retry.backoffMs },
    // Results stay readable for a week, failures for a month (long enough to cover a token reset period).
    removeOnComplete: { age: 7 * DAY_SECONDS },
    removeOnFail: { age: 30 * DAY_SECONDS },
  };
}
