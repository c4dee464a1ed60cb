import { DelayedError, type Job } from 'bullmq';
import type { GenerationJobData, RequestByKind } from '@mediagen/core';
import { VIDEO_PENDING_STATUSES, planVideo, unexpectedVideoStatusMessage, videoPollProgress } from '@mediagen/shared';
import { GenerationError } from '../generation-error';
import { NetworkError } from '../providers/http';
import { storeResult, type GenerationProcessor, type ProcessorContext } from './processor-context';

type VideoJob = Job<GenerationJobData>;

/**
 * Rather than sleeping between polls, the job records its step and delays itself: the worker slot is
 * free while the provider renders, and a retried or recovered job resumes the same provider task
 * instead of paying for a second video (BullMQ's process-step-jobs pattern).
 */
async function waitForNextPoll(job: VideoJob, token: string | undefined, intervalMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + intervalMs, token);
  throw new DelayedError();
}

export function createVideoProcessor(context: ProcessorContext): GenerationProcessor<'video'> {
  const { intervalMs, maxPolls } = context.videoPolling;

  return async (job, attempt) => {
    // The task id lives in the record; the job keeps a copy written first, in case the record could
    // not be reached right after the provider accepted (a paid task must never be started twice).
    const taskId = attempt.generation.providerTaskId ?? job.data.taskId;

    if (taskId === undefined || taskId === null) {
      const request = attempt.generation.request as RequestByKind['video'];
      const plan = planVideo({ ...request, durationSeconds: request.duration }, context.videoModel);
      await job.log(
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
      await job.updateData({ ...job.data, taskId: started, polls: 0 });
      await attempt.recordProviderTask(started);
      await job.log(`minimax task ${started} started`);
      await attempt.progress.report(videoPollProgress(0));
      return waitForNextPoll(job, attempt.token, intervalMs);
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
          // Spec §8: polling goes on after network errors and HTTP 5xx.
          if (error instanceof NetworkError) return null;
          throw error;
        });
      await job.log(`poll ${polls}: ${task === null ? 'no answer (will retry)' : task.status}`);

      if (task === null || VIDEO_PENDING_STATUSES.has(task.status)) {
        if (polls >= maxPolls) throw GenerationError.of('VIDEO_TIMED_OUT', { retryable: false });
        await job.updateData({ ...job.data, polls });
        await attempt.progress.report(videoPollProgress(polls));
        return waitForNextPoll(job, attempt.token, intervalMs);
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
      await job.updateData({ ...job.data, polls, fileId });
    }

    await attempt.progress.report(95);
    const file = fileId;
    const downloadUrl = await attempt.call(
      'minimax',
      'file_retrieve',
      (signal) => context.minimax.retrieveDownloadUrl(file, signal),
      {
        paid: false,
      },
    );
    await job.log(`minimax file ${file}: downloading`);
    const video = await attempt.call(
      'minimax',
      'file_download',
      (signal) => context.minimax.downloadVideo(downloadUrl, signal),
      {
        paid: false,
      },
    );
    return storeResult(context, job, attempt, video.bytes, video.mimeType);
  };
}
