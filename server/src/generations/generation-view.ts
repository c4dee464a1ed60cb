import type { GenerationJobData, GenerationJobResult } from '@mediagen/core';
import {
  ERROR_MESSAGES,
  nextProgress,
  type ApiError,
  type Generation,
  type GenerationResult,
  type GenerationStatus,
} from '@mediagen/shared';

/** The fields of a BullMQ job the view reads (a `Job` satisfies it; tests pass plain objects). */
export interface JobSnapshot {
  id?: string | undefined;
  data: GenerationJobData;
  progress: unknown;
  returnvalue: GenerationJobResult | null | undefined;
  failedReason: string | undefined;
  timestamp: number;
  processedOn?: number | undefined;
  finishedOn?: number | undefined;
}

/** BullMQ's job states, plus 'unknown' for a job that vanished while being read. */
export type JobStateName =
  'waiting' | 'delayed' | 'prioritized' | 'waiting-children' | 'active' | 'completed' | 'failed' | 'unknown';

export interface ViewContext {
  /** Whether the cancel flag is set for this generation. */
  canceled: boolean;
  /** Builds the short-lived signed URL of an artifact. */
  artifactUrl(key: string): string;
}

function statusOf(state: JobStateName, canceled: boolean, started: boolean): GenerationStatus {
  // A result that exists is delivered even if a cancel arrived too late to stop it.
  if (state === 'completed') return 'completed';
  if (canceled) return 'canceled';
  switch (state) {
    case 'active':
      return 'active';
    case 'failed':
      return 'failed';
    case 'waiting':
    case 'delayed':
    case 'prioritized':
    case 'waiting-children':
    case 'unknown':
      // A started job waiting again is between video polls or retry attempts: still running for its owner.
      return started ? 'active' : 'queued';
  }
}

export function promptOf(data: GenerationJobData): string {
  const request = data.request as { prompt?: string; input?: string };
  return request.prompt ?? request.input ?? '';
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One job and its state as the `Generation` every GET and every `generation:update` carries. */
export function generationView(job: JobSnapshot, state: JobStateName, context: ViewContext): Generation {
  const status = statusOf(state, context.canceled, job.processedOn !== undefined && job.processedOn !== null);
  const reported = typeof job.progress === 'number' && Number.isFinite(job.progress) ? job.progress : 0;
  const generation: Generation = {
    id: job.id ?? '',
    kind: job.data.kind,
    status,
    progress: status === 'completed' ? 100 : nextProgress(0, reported),
    createdAt: iso(job.data.createdAt),
    updatedAt: iso(Math.max(job.timestamp, job.processedOn ?? 0, job.finishedOn ?? 0)),
    prompt: promptOf(job.data),
  };
  if (status === 'completed' && job.returnvalue?.artifactKey) {
    const result: GenerationResult = {
      url: context.artifactUrl(job.returnvalue.artifactKey),
      mimeType: job.returnvalue.mimeType,
    };
    generation.result = result;
  }
  if (status === 'failed') generation.error = failureOf(job);
  if (status === 'canceled') generation.error = { code: 'CANCELED', message: ERROR_MESSAGES.CANCELED };
  return generation;
}

function failureOf(job: JobSnapshot): ApiError {
  // The worker stores the catalogue code and the spec's message; a bare failedReason is the fallback.
  if (job.data.error) return job.data.error as ApiError;
  return { code: 'INTERNAL', message: job.failedReason || ERROR_MESSAGES.INTERNAL };
}

/** The state right after enqueueing, without reading the job back. */
export function queuedView(id: string, data: GenerationJobData): Generation {
  return {
    id,
    kind: data.kind,
    status: 'queued',
    progress: 0,
    createdAt: iso(data.createdAt),
    updatedAt: iso(data.createdAt),
    prompt: promptOf(data),
  };
}
