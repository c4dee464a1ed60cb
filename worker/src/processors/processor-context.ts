import type { Job } from 'bullmq';
import {
  artifactKey,
  inSpan,
  markedCopyOf,
  type ArtifactStore,
  type CompletedArtifact,
  type GenerationJobData,
  type GenerationRecord,
  type RequestByKind,
} from '@mediagen/core';
import type { GenerationKind, MiniMaxVideoModel, SpeechApi, SpeechModel } from '@mediagen/shared';
import type { MiniMaxClient } from '../providers/minimax-client';
import type { SpeechSynthesizer } from '../providers/speech-synthesizer';
import type { ProviderCall, ProviderName } from '../providers/provider-calls';
import type { StabilityClient } from '../providers/stability-client';
import type { StableImageClient } from '../providers/stable-image-client';
import { isImageModel, sentVideoModel } from '@mediagen/shared';
import { markOutput } from '../marking';
import type { ContentCredentials } from '../marking/content-credentials';
import type { ProgressReporter } from './job-progress';
import type { VideoPolling } from './video-polling';

export type { VideoPolling } from './video-polling';
export interface ProcessorContext {
  artifacts: ArtifactStore;
  /** Today, as providers' shutdown dates are read. */
  clock: () => number;
  /** Stability's v1 text-to-image (the `sdxl-1.0` model). */
  stability: StabilityClient;
  /** Stability's v2beta Stable Image: the other models, and the 4K upscale. */
  stableImage: StableImageClient;
  minimax: MiniMaxClient;
  /** OpenAI's speech, one adapter per API; each generation is read by the API of its recorded model. */
  speech: Record<SpeechApi, SpeechSynthesizer>;
  /** SPEECH_MODEL: reads the speech recorded before its model was. */
  speechModel: SpeechModel;
  videoPolling: VideoPolling;
  /**
   * The base video model (MINIMAX_VIDEO_MODEL): what a video made with `T2V-01`, or recorded with no model,
   * is sent as. A Hailuo video is sent as the model recorded with it at submit (video-models.ts).
   */
  videoModel: MiniMaxVideoModel;
  /** Signs images and MP3s with a C2PA manifest; null: no signing credentials, outputs go unsigned. */
  contentCredentials: ContentCredentials | null;
}

export interface CallOptions {
  /**
   * The call may create paid provider work (a generation, a render). The lifecycle records it before the
   * request goes out, and takes it back if the provider refuses before doing any work.
   */
  paid: boolean;
}

/** One run of a processor: its generation as the record holds it, and what it may do with it. */
export interface JobAttempt<K extends GenerationKind = GenerationKind> {
  generation: GenerationRecord & { request: RequestByKind[K] };
  /** BullMQ's lock token of this run. */
  token: string | undefined;
  /** Fires on cancel, on the job deadline and at shutdown hand-back; its reason is how the job ends. */
  signal: AbortSignal;
  progress: ProgressReporter;
  /** Sends one provider call through the provider's breaker, with a metric and a job log line. */
  call<T>(
    provider: ProviderName,
    call: ProviderCall,
    action: (signal: AbortSignal) => Promise<T>,
    options: CallOptions,
  ): Promise<T>;
  /** Keeps a provider's paid task id in the record, so no retry or takeover ever starts a second one. */
  recordProviderTask(taskId: string): Promise<void>;
  /** Adds a line to the job's log; a line Redis could not take is not worth the run. */
  log(line: string): Promise<void>;
  /**
   * Keeps how far the run got in the job's data, for the next run of a step job (a video's task, an image
   * set's images made). Rejects with a QueueStepError when Redis cannot take it.
   */
  saveStep(step: Partial<Pick<GenerationJobData, 'taskId' | 'polls' | 'fileId' | 'imagesMade'>>): Promise<void>;
  /**
   * Whether `error`, thrown out of the processor, would end the job for good: a failure not retried, or on
   * the job's last attempt (a cancel, a hand-back, a held-back provider or a Redis step never does). An image
   * set completes with the images it made instead.
   */
  endsTheJob(error: unknown): boolean;
  /** Puts the job back in its queue for `ms` and ends this run (the next step runs then). */
  pollAgainIn(ms: number): Promise<never>;
}

export type GenerationProcessor<K extends GenerationKind> = (
  job: Job<GenerationJobData>,
  attempt: JobAttempt<K>,
) => Promise<CompletedArtifact>;

/** The model a generation was made with, as its Content Credentials name it. */
function modelOf(generation: JobAttempt['generation'], context: ProcessorContext): string {
  const request: { model?: unknown } = generation.request;
  switch (generation.kind) {
    case 'image':
      // Recorded before models were: the v1 engine, as it was made then.
      return isImageModel(request.model) ? request.model : 'sdxl-1.0';
    case 'video':
      return sentVideoModel(request.model, context.videoModel);
    case 'speech':
      return typeof request.model === 'string' ? request.model : context.speechModel;
  }
}

/**
 * Stores the provider's output as the generation's artifact, at 95 %: the original with the AI-content
 * metadata, and beside it the copy with the product mark (worker/src/marking), whatever the owner's plan,
 * so the plan can change afterwards without rendering anything again. Both are signed with Content
 * Credentials (a C2PA manifest) last, in the formats that can be: nothing may change a file after that.
 * What the manifests say is kept with the artifact, for the library to show.
 */
export async function storeResult(
  context: ProcessorContext,
  job: Job,
  attempt: JobAttempt,
  bytes: Uint8Array,
  mimeType: string,
  /** What the files are named after: the generation's id, or an image of a set (setImageOf). */
  name: string = job.id!,
  /** The progress the step begins at: 95, the last step; an image of a set is stored as soon as it is made. */
  progress = 95,
): Promise<CompletedArtifact> {
  attempt.signal.throwIfAborted();
  // Told while the marking runs: the owner sees the step begin, and the marking waits for nobody.
  const reported = attempt.progress.report(progress);
  const kind = attempt.generation.kind;
  const startedAt = performance.now();
  const attributes = { 'mediagen.artifact.mime_type': mimeType, 'mediagen.artifact.bytes': bytes.byteLength };
  const plain = await inSpan('marking', { attributes }, () =>
    markOutput(kind, bytes, artifactKey(name, mimeType).split('.').pop()!),
  );
  const markMs = Math.round(performance.now() - startedAt);
  const signed = await inSpan('content credentials', { attributes }, async () =>
    context.contentCredentials?.signOutput(plain, mimeType, modelOf(attempt.generation, context)),
  );
  const { clean, marked } = signed ?? plain;
  const signMs = Math.round(performance.now() - startedAt) - markMs;
  const [artifact, markedCopy] = await inSpan('artifact store', { attributes }, () =>
    Promise.all([
      context.artifacts.save(name, clean, mimeType),
      context.artifacts.save(markedCopyOf(name), marked, mimeType),
      reported,
    ]),
  );
  // Not waited for: it reaches Redis before the job is marked completed, on the same connection.
  void attempt.log(
    `stored ${artifact.key} (${artifact.bytes} bytes, ${artifact.mimeType}) and its marked copy, marked in ${markMs} ms, ` +
      (signed ? `Content Credentials signed in ${signMs} ms` : 'no Content Credentials (unsigned)'),
  );
  return { ...artifact, markedKey: markedCopy.key, ...(signed ? { contentCredentials: signed.summary } : {}) };
}
