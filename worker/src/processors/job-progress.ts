import { nextProgress } from '@mediagen/shared';

/** Where progress goes: the generation's id, owner and current version travel with every value. */
export type ProgressSink = (progress: number) => Promise<void>;

/**
 * Progress that only rises and stays at most 99 until the generation completes (docs/ARCHITECTURE.md). It is
 * ephemeral (never a database transaction): each new whole percent is published, and no more often than
 * the processor reports or `during` ticks.
 */
export class ProgressReporter {
  private current = 0;

  constructor(private readonly sink: ProgressSink) {}

  async report(progress: number): Promise<void> {
    const next = nextProgress(this.current, progress);
    if (next === this.current) return;
    this.current = next;
    // Ephemeral: a value Redis could not take (an outage, a failover) is not worth failing the run for;
    // the next one carries on from here.
    await this.sink(next).catch(() => undefined);
  }

  /**
   * Providers of images and speech say nothing until they answer, so while `work` runs the progress
   * creeps from `from` towards `to`, fast at first and ever more slowly around the expected duration.
   * One step every `tickMs` (default 500): what a person can see move.
   */
  async during<T>(
    work: Promise<T>,
    options: { from: number; to: number; expectedMs: number; tickMs?: number },
  ): Promise<T> {
    const startedAt = Date.now();
    const tick = setInterval(() => {
      const elapsed = Date.now() - startedAt;
      const share = 1 - Math.exp(-elapsed / options.expectedMs);
      void this.report(options.from + (options.to - options.from) * share);
    }, options.tickMs ?? 500);
    try {
      return await work;
    } finally {
      clearInterval(tick);
    }
  }
}
