import { isFinalStatus, type Generation } from '@mediagen/shared';
import { ProgressBar } from '@/components/ui/ProgressBar';
import { progressMessage } from '../kind-texts';

/** Progress of a running generation, with its place in the queue while it waits. */
export function GenerationProgress({ generation }: { generation: Generation | undefined }) {
  if (generation === undefined || isFinalStatus(generation.status)) return null;
  const { kind, progress, queue } = generation;
  return (
    <div className="grid gap-2" aria-live="polite">
      <ProgressBar label={`${kind} generation progress`} value={progress} />
      <div className="flex flex-wrap justify-between gap-x-3 text-sm text-slate-600 dark:text-slate-400">
        <span>{progressMessage(kind, progress)}</span>
        {generation.status === 'queued' && queue !== undefined && <span>{queueMessage(queue.position, queue.etaMs)}</span>}
      </div>
    </div>
  );
}

function queueMessage(position: number, etaMs: number | null): string {
  const place = `Position ${position} in queue`;
  if (etaMs === null) return place;
  const seconds = Math.max(1, Math.round(etaMs / 1000));
  return `${place} · about ${seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`}`;
}
