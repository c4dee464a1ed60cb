import type { RequestByKind } from '@mediagen/core';
import {
  VIDEO_PENDING_STATUSES,
  planVideo,
  sentVideoModel,
  unexpectedVideoStatusMessage,
  videoPollProgress,
} from '@mediagen/shared';
import { GenerationError } from '../generation-error';
import { AskAgainLater } from '../providers/provider-calls';
import { storeResult, type GenerationProcessor, type ProcessorContext } from './processor-context';
import { maxPollsFor } from './video-polling';

/**
 * Rather than sleeping between polls, the job records its step and delays itself (attempt.pollAgainIn):
 * the worker slot is free while the provider renders, and a retried or recovered job resumes the same
 * provider task instead of paying for a second video (BullMQ's process-step-jobs pattern).
 */
export function createVideoProcessor(context: ProcessorContext): GenerationProcessor<'video'> {
  const { intervalMs } = context.videoPolling;

  return async (job, attempt) => {
    // The model, resolution and length were settled at submit by the owner's plan and recorded with the
    // request (shared/src/video-models.ts); one recorded before that is the base model's.
    const request = attempt.generation.request as RequestByKind['video'];
    const model = sentVideoModel(request.model, context.videoModel);
    // The task id lives in the record and in the job's data: a paid task must never be started twice, so
    // either copy is enough for a later run to resume it.
    const taskId = attempt.generation.providerTaskId ?? job.data.taskId;

    if (taskId === undefined || taskId === null) {
      const plan = planVideo({ ...request, durationSeconds: request.duration }, model);
      await attempt.log(
        `minimax video_generation (${plan.quality}, ${plan.format}): ${JSON.stringify({ ...plan.body, prompt: undefined })}`,
      );
      const started = await attempt.call(
        'minimax',
        'video_start',
        (signal) => context.minimax.startTask(plan.body, signal),
        {
          paid: true,
        },
      );
      // Each copy is tried whatever becomes of the other (the record's PostgreSQL and the job's Redis fail
      // apart); the record's failure is reported first, as the one the job's retry must make good.
      const saved = await Promise.allSettled([
        attempt.recordProviderTask(started),
        attempt.saveStep({ taskId: started, polls: 0 }),
      ]);
      for (const copy of saved) if (copy.status === 'rejected') throw copy.reason;
      await attempt.log(`minimax task ${started} started`);
      await attempt.progress.report(videoPollProgress(0));
      return attempt.pollAgainIn(intervalMs);
    }
    if (attempt.generation.providerTaskId === null) await attempt.recordProviderTask(taskId);

    let fileId = job.data.fileId;
    if (fileId === undefined) {
      const polls = (job.data.polls ?? 0) + 1;
      // A poll refused by the open breaker or a 429 is not counted: the job goes back to its queue,
      // which waits out the cool-down, and asks again (bounded by the job deadline, not by max polls).
      const task = await attempt
        .call('minimax', 'video_query', (signal) => context.minimax.queryTask(taskId, signal), { paid: false })
        .catch((error: unknown) => {
          // Spec §8: polling goes on after network errors and HTTP 5xx (and whatever else the task's
          // answer could not be read for: minimax-client.ts).
          if (error instanceof AskAgainLater) return null;
          throw error;
        });
      await attempt.log(`poll ${polls}: ${task === null ? 'no answer (will retry)' : task.status}`);

      if (task === null || VIDEO_PENDING_STATUSES.has(task.status)) {
        if (polls >= maxPollsFor(context.videoPolling, model)) {
          throw GenerationError.of('VIDEO_TIMED_OUT', { retryable: false });
        }
        await attempt.saveStep({ polls });
        await attempt.progress.report(videoPollProgress(polls));
        return attempt.pollAgainIn(intervalMs);
      }
      // The provider accepted the task (paid work) and then refused it: the token stays spent.
      if (task.status === 'Fail') {
        throw GenerationError.of('VIDEO_FAILED_ON_SERVER', { retryable: false, outcome: 'content_refused' });
      }
      if (task.status !== 'Success') {
        throw new GenerationError('VIDEO_UNEXPECTED_STATUS', unexpectedVideoStatusMessage(task.status), false);
      }
      if (task.fileId === undefined) throw GenerationError.of('VIDEO_INVALID_RESPONSE', { retryable: false });
      fileId = task.fileId;
      await attempt.saveStep({ polls, fileId });
    }

    await attempt.progress.report(95);
    const file = fileId;
    // The video is rendered and paid for: a file that cannot be fetched this time is asked for again
    // (a fresh link each time), without using an attempt, until the job's deadline.
    const video = await fetchVideo(file).catch(async (error: unknown) => {
      if (!(error instanceof AskAgainLater)) throw error;
      await attempt.log(`minimax file ${file}: not fetched (${error.message}); asking again`);
      return attempt.pollAgainIn(intervalMs);
    });
    return storeResult(context, job, attempt, video.bytes, video.mimeType);

    async function fetchVideo(file: string) {
      const downloadUrl = await attempt.call(
        'minimax',
        'file_retrieve',
        (signal) => context.minimax.retrieveDownloadUrl(file, signal),
        { paid: false },
      );
      await attempt.log(`minimax file ${file}: downloading`);
      return attempt.call('minimax', 'file_download', (signal) => context.minimax.downloadVideo(downloadUrl, signal), {
        paid: false,
      });
    }
  };
}
