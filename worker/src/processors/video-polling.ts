import { MINIMAX_VIDEO_MODELS, type MiniMaxVideoModel } from '@mediagen/shared';

/** How a video's task is polled: every `intervalMs`, for its model's window unless `maxPolls` is set. */
export interface VideoPolling {
  intervalMs: number;
  /** VIDEO_MAX_POLLS: the same number of polls for every model. */
  maxPolls?: number;
}

/**
 * Polls a task of `model` gets before the job gives up: its model's window (shared/src/video.ts: the
 * spec's 12 minutes for the first generation, 30 for Hailuo) at the polling interval.
 */
export function maxPollsFor(polling: VideoPolling, model: MiniMaxVideoModel): number {
  return polling.maxPolls ?? Math.ceil(MINIMAX_VIDEO_MODELS[model].pollWindowMs / polling.intervalMs);
}
