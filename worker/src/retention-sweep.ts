import { recordPass, type GenerationJobOwner, type GenerationLifecycle, type TouchedGeneration } from '@mediagen/core';
import { DAY_MS, type PlanId } from '@mediagen/shared';

/** Files let go per batch: each batch is one short statement, so a large backlog never holds locks long. */
const BATCH = 200;

export interface RetentionReport {
  expired: number;
  /** Files that could not be deleted (logged; no record points at them any more). */
  failed: number;
}

/**
 * Retention of results: the files of completed generations older than their plan's `days` are deleted,
 * each record kept with the time its result expired (the library shows it as such). The record changes
 * first and the file goes after the commit, so a link never points at a record that still offers it.
 * Several workers may sweep at once: the lifecycle skips rows another sweep holds.
 */
export class RetentionSweep {
  constructor(
    private readonly options: {
      lifecycle: Pick<GenerationLifecycle, 'expireArtifacts'>;
      jobs: Pick<GenerationJobOwner, 'discarded'>;
      retentionDays: Partial<Record<PlanId, number>>;
      clock?: () => number;
      log(message: string): void;
    },
  ) {}

  async sweep(): Promise<RetentionReport> {
    const report: RetentionReport = { expired: 0, failed: 0 };
    const now = (this.options.clock ?? Date.now)();
    const cutoffs = Object.fromEntries(
      Object.entries(this.options.retentionDays).map(([plan, days]) => [plan, new Date(now - days * DAY_MS)]),
    ) as Partial<Record<PlanId, Date>>;
    if (Object.keys(cutoffs).length === 0) return report;
    const touched: TouchedGeneration[] = [];
    for (;;) {
      const expired = await this.options.lifecycle.expireArtifacts(cutoffs, BATCH);
      touched.push(...expired);
      for (const { id, artifactKeys } of expired) {
        const removed = await this.options.jobs.discarded(artifactKeys).then(
          () => true,
          (error: unknown) => {
            this.options.log(`retention: could not delete the files of ${id}: ${String(error)}`);
            return false;
          },
        );
        if (removed) report.expired += 1;
        else report.failed += 1;
      }
      if (expired.length < BATCH) {
        recordPass('retention sweep', new Date(now), touched, { 'mediagen.files.failed': report.failed });
        return report;
      }
    }
  }
}
