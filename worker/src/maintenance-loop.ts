import type { BillingRecord, SpendControls } from '@mediagen/core';
import type { CreditProbe } from './credit-probe';
import type { WorkerMetrics } from './observability/worker-metrics';
import type { PriorityAging } from './priority-aging';
import type { Reconciler } from './reconciler';
import type { RetentionSweep } from './retention-sweep';

/**
 * The worker's housekeeping, every `intervalMs`: a reconciliation pass (only the process holding the
 * lock does the work), a retention sweep, past-due accounts whose grace is over back to Free, the aging of long-waiting jobs' priority, a balance check of
 * providers marked out of credit, and the spend gauges.
 */
export function startMaintenanceLoop(
  tasks: {
    reconciler: Reconciler;
    retention: RetentionSweep;
    aging: PriorityAging;
    billing: Pick<BillingRecord, 'lapseExpiredGrace'>;
    spend: SpendControls;
    credit: CreditProbe;
    metrics: WorkerMetrics;
  },
  intervalMs: number,
): { stop(): void } {
  const warn = (what: string) => (error: unknown) =>
    console.warn(`[worker] ${what} failed`, error instanceof Error ? error.message : error);
  const timer = setInterval(() => {
    tasks.reconciler.reconcile().then((report) => {
      if (report !== null) tasks.metrics.reconciled(report);
      if (report !== null && report.givingBack.length > 0) {
        console.warn(
          `[worker] reconciler: paid calls to give back refused by the record for ${report.givingBack.join(', ')}`,
        );
      }
      if (report === null || report.requeued.length + report.expired.length + report.concluded.length === 0) return;
      console.warn(
        `[worker] reconciler: ${report.requeued.length} requeued, ${report.expired.length} expired, ` +
          `${report.concluded.length} concluded (of ${report.checked} checked)`,
      );
    }, warn('reconciler pass'));
    tasks.retention.sweep().then((report) => {
      if (report.expired + report.failed > 0) {
        console.warn(`[worker] retention: ${report.expired} results expired, ${report.failed} files not deleted`);
      }
    }, warn('retention sweep'));
    tasks.billing.lapseExpiredGrace().then((lapsed) => {
      if (lapsed.length > 0) console.warn(`[worker] billing: ${lapsed.length} past-due accounts fell back to Free`);
    }, warn('billing grace sweep'));
    // The gauges are read after the probe, so a cleared mark shows in the same pass.
    tasks.credit
      .probe()
      .then((cleared) => {
        for (const provider of cleared) console.warn(`[worker] ${provider} has credit again: its paid calls resume`);
      }, warn('credit probe'))
      .then(() => tasks.spend.status())
      .then((status) => tasks.metrics.spendStatus(status), warn('spend status'));
    tasks.aging.pass().then((promoted) => {
      if (promoted.length > 0) console.warn(`[worker] priority: ${promoted.length} long-waiting jobs moved up`);
    }, warn('priority aging'));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
