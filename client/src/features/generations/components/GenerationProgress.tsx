import { isFinalStatus, type Generation } from '@mediagen/shared';
import { ProgressBar } from '@/components/ui/ProgressBar';
import { progressMessage, queueMessage } from '../kind-texts';

/** Progress of a running generation; while it waits, its place in line instead of a percentage. */
export function GenerationProgress({ generation }: { generation: Generation | undefined }) {
  if (generation === undefined || isFinalStatus(generation.status)) return null;
  const { kind, progress, queue } = generation;
  const message =
    generation.status === 'queued' && queue !== undefined ? queueMessage(queue) : progressMessage(kind, progress);
  return (
    <div className="grid gap-2">
      <ProgressBar label={`${kind} generation progress`} value={progress} valueText={message} />
      {/* The status line is the live region: the bar's every step would be too chatty to announce. */}
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {message}
      </p>
    </div>
  );
}
