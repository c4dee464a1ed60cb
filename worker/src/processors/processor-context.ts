import type { Job } from 'bullmq';
import type { ArtifactStore, CancellationRegistry, GenerationJobData, GenerationJobResult } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import { canceledError } from '../generation-error';
import type { ProgressReporter } from './job-progress';
import type { MiniMaxClient } from '../providers/minimax-client';
import type { OpenAISpeechClient } from '../providers/openai-speech-client';
import type { ProviderCall, ProviderName } from '../providers/provider-calls';
import type { StabilityClient } from '../providers/stability-client';

export interface VideoPolling {
  intervalMs: number;
  maxPolls: number;
}

export interface ProcessorContext {
  artifacts: ArtifactStore;
  cancellations: CancellationRegistry;
  stability: StabilityClient;
  minimax: MiniMaxClient;
  speech: OpenAISpeechClient;
  videoPolling: VideoPolling;
  /** Remembers which generation owns a provider task, for operators searching by task id. */
  indexVideoTask(taskId: string, generationId: string): Promise<void>;
}

/** One run of a processor: its BullMQ lock token, the signal that stops it, and its provider-call gate. */
export interface JobAttempt {
  token: string | undefined;
  /** Fires on cancel, on the job deadline and at shutdown hand-back; its reason is how the job ends. */
  signal: AbortSignal;
  /** Sends one provider call through the provider's breaker, with a metric and a job log line. */
  call<T>(provider: ProviderName, call: ProviderCall, action: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export type GenerationProcessor<K extends GenerationKind> = (
  job: Job<GenerationJobData<K>, GenerationJobResult>,
  attempt: JobAttempt,
) => Promise<GenerationJobResult>;

export async function throwIfCanceled(context: ProcessorContext, job: Job, attempt?: JobAttempt): Promise<void> {
  attempt?.signal.throwIfAborted();
  if (await context.cancellations.isCanceled(job.id!)) throw canceledError();
}

/** Stores the provider's bytes as the job's result, at 95 %. */
export async function storeResult(
  context: ProcessorContext,
  job: Job,
  attempt: JobAttempt,
  progress: ProgressReporter,
  bytes: Uint8Array,
  mimeType: string,
): Promise<GenerationJobResult> {
  // A result that arrives after a cancel is dropped, not stored. The check and the progress go out together.
  await Promise.all([progress.report(95), throwIfCanceled(context, job, attempt)]);
  const artifact = await context.artifacts.save(job.id!, bytes, mimeType);
  // Not waited for: it reaches Redis before the job is marked completed, on the same connection.
  void job.log(`stored ${artifact.key} (${artifact.bytes} bytes, ${artifact.mimeType})`).catch(() => undefined);
  return { artifactKey: artifact.key, mimeType: artifact.mimeType, bytes: artifact.bytes };
}
