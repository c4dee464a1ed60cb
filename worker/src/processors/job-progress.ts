import type { Job } from 'bullmq';
import { nextProgress } from '@mediagen/shared';

/** Reports progress that only rises and stays at most 99 until the job completes (DESIGN.md). */
export class ProgressReporter {
  private current: number;

  constructor(private readonly job: Job) {
    this.current = typeof job.progress === 'number' ? job.progress : 0;
  }

  async report(progress: number): Promise<void> {
    const next = nextProgress(this.current, progress);
    if (next === this.current) return;
    this.current = next;
    await this.job.updateProgress(next);
  }

  /**
   * Providers of images and speech say nothing until they answer, so while `work` runs the progress
   * creeps from `from` towards `to`, fast at first and ever more slowly around the expected duration.
   */
  async during<T>(
    work: Promise<T>,
    options: { from: number; to: number; expectedMs: number; tickMs?: number },
  ): Promise<T> {
    const startedAt = Date.now();
    const tick = setInterval(() => {
      const elapsed = Date.now() - startedAt;
      const share = 1 - Math.exp(-elapsed / options.expectedMs);
      void this.report(options.from + (options.to - options.from) * share).catch(() => undefined);
    }, options.tickMs ?? 500);
    try {
      return await work;
    } finally {
      clearInterval(tick);
    }
  }
}
