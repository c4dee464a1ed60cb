import type { GenerationStatus } from '@mediagen/shared';

const STYLES: Record<GenerationStatus, string> = {
  queued: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  active: 'bg-violet-100 text-violet-800 dark:bg-violet-500/20 dark:text-violet-200',
  completed: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-200',
  failed: 'bg-rose-100 text-rose-800 dark:bg-rose-500/15 dark:text-rose-200',
  canceled: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-200',
};

export const STATUS_LABELS: Record<GenerationStatus, string> = {
  queued: 'Queued',
  active: 'Generating',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
};

export function StatusBadge({ status }: { status: GenerationStatus }) {
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STYLES[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}
