import { DelayedError, type Job } from 'bullmq';
import type { GenerationJobData, VideoProgressState } from '@mediagen/core';
import { VIDEO_PENDING_STATUSES, planVideo, unexpectedVideoStatusMessage, videoPollProgress } from '@mediagen/shared';
import { GenerationError } from '../generation-error';
import { NetworkError } from '../providers/http';
import { ProgressReporter } from './job-progress';
import { storeResult, throwIfCanceled, type GenerationProcessor, type ProcessorContext } from './processor-context';

type VideoJob = Job<GenerationJobData<'video'>>;

async function saveVideoState(job: VideoJob, video: VideoProgressState): Promise<void> {
  await job.updateData({ ...job.data, video });
}

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
    await throwIfCanceled(context, job, attempt);
    const progress = new ProgressReporter(job);
    const state: VideoProgressState = job.data.video ?? {};

    if (state.taskId === undefined) {
      const plan = planVideo({ ...job.data.request, durationSeconds: job.data.request.duration });
      await job.log(
        `minimax video_generation: ${plan.body.resolution}, ${plan.body.max_frames} frames, ${plan.format}`,
      );
      const taskId = await attempt.call('minimax', 'video_start', (signal) =>
        context.minimax.startTask(plan.body, signal),
      );
      // Saved before anything else can fail, so no retry ever starts a second task.
      await saveVideoState(job, { taskId, polls: 0 });
      await job.log(`minimax task ${taskId} started`);
      await context.indexVideoTask(taskId, job.id!).catch(() => undefined);
      await progress.report(videoPollProgress(0));
      return waitForNextPoll(job, attempt.token, intervalMs);
    }

    if (state.fileId === undefined) {
      const polls = (state.polls ?? 0) + 1;
      const taskId = state.taskId;
      // A poll refused by the open breaker or a 429 is not counted: the job goes back to its queue,
      // which waits out the cool-down, and asks again (bounded by the job deadline, not by max polls).
      const task = await attempt
        .call('minimax', 'video_query', (signal) => context.minimax.queryTask(taskId, signal))
        .catch((error: unknown) => {
          // Spec §8: polling goes on after network errors and HTTP 5xx.
          if (error instanceof NetworkError) return null;
          throw error;
        });
      await job.log(`poll ${polls}: ${task === null ? 'no answer (will retry)' : task.status}`);

      if (task === null || VIDEO_PENDING_STATUSES.has(task.status)) {
        if (polls >= maxPolls) throw GenerationError.of('VIDEO_TIMED_OUT', { retryable: false });
        await saveVideoState(job, { ...state, polls });
        await progress.report(videoPollProgress(polls));
        return waitForNextPoll(job, attempt.token, intervalMs);
      }
      if (task.status === 'Fail') throw GenerationError.of('VIDEO_FAILED_ON_SERVER', { retryable: false });
      if (task.status !== 'Success') {
        throw new GenerationError('VIDEO_UNEXPECTED_STATUS', unexpectedVideoStatusMessage(task.status), false);
      }
      if (task.fileId === undefined) throw GenerationError.of('VIDEO_INVALID_RESPONSE', { retryable: false });
      state.fileId = task.fileId;
      await saveVideoState(job, { ...state, polls });
    }

    await progress.report(95);
    const fileId = state.fileId;
    const downloadUrl = await attempt.call('minimax', 'file_retrieve', (signal) =>
      context.minimax.retrieveDownloadUrl(fileId, signal),
    );
    await job.log(`minimax file ${fileId}: downloading`);
    const video = await attempt.call('minimax', 'file_download', (signal) =>
      context.minimax.downloadVideo(downloadUrl, signal),
    );
    return storeResult(context, job, attempt, progress, video.bytes, video.mimeType);
  };
}
