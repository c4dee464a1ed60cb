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

  return async (job, token) => {
    await throwIfCanceled(context, job);
    const progress = new ProgressReporter(job);
    const state: VideoProgressState = job.data.video ?? {};

    if (state.taskId === undefined) {
      const plan = planVideo({ ...job.data.request, durationSeconds: job.data.request.duration });
      await job.log(`minimax video_generation: ${plan.body.resolution}, ${plan.body.max_frames} frames, ${plan.format}`);
      const taskId = await context.minimax.startTask(plan.body);
      // Saved before anything else can fail, so no retry ever starts a second task.
      await saveVideoState(job, { taskId, polls: 0 });
      await job.log(`minimax task ${taskId} started`);
      await progress.report(videoPollProgress(0));
      return waitForNextPoll(job, token, intervalMs);
    }

    if (state.fileId === undefined) {
      const polls = (state.polls ?? 0) + 1;
      const task = await context.minimax.queryTask(state.taskId).catch((error: unknown) => {
        // Spec §8: polling goes on after network errors and HTTP 5xx.
        if (error instanceof NetworkError) return null;
        throw error;
      });
      await job.log(`poll ${polls}: ${task === null ? 'no answer (will retry)' : task.status}`);

      if (task === null || VIDEO_PENDING_STATUSES.has(task.status)) {
        if (polls >= maxPolls) throw GenerationError.of('VIDEO_TIMED_OUT', { retryable: false });
        await saveVideoState(job, { ...state, polls });
        await progress.report(videoPollProgress(polls));
        return waitForNextPoll(job, token, intervalMs);
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
    const downloadUrl = await context.minimax.retrieveDownloadUrl(state.fileId);
    await job.log(`minimax file ${state.fileId}: downloading`);
    const video = await context.minimax.downloadVideo(downloadUrl);
    return storeResult(context, job, video.bytes, video.mimeType);
  };
}
