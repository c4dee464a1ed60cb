import type { Job } from 'bullmq';
import type {
  ArtifactStore,
  CancellationRegistry,
  GenerationJobData,
  GenerationJobResult,
} from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import { GenerationError } from '../generation-error';
import type { MiniMaxClient } from '../providers/minimax-client';
import type { OpenAISpeechClient } from '../providers/openai-speech-client';
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
}

export type GenerationProcessor<K extends GenerationKind> = (
  job: Job<GenerationJobData<K>, GenerationJobResult>,
  token: string | undefined,
) => Promise<GenerationJobResult>;

export async function throwIfCanceled(context: ProcessorContext, job: Job): Promise<void> {
  if (await context.cancellations.isCanceled(job.id!)) throw GenerationError.of('CANCELED', { retryable: false });
}

export async function storeResult(
  context: ProcessorContext,
  job: Job,
  bytes: Uint8Array,
  mimeType: string,
): Promise<GenerationJobResult> {
  // A result that arrives after a cancel is dropped, not stored.
  await throwIfCanceled(context, job);
  const artifact = await context.artifacts.save(job.id!, bytes, mimeType);
  await job.log(`stored ${artifact.key} (${artifact.bytes} bytes, ${artifact.mimeType})`);
  return { artifactKey: artifact.key, mimeType: artifact.mimeType, bytes: artifact.bytes };
}
