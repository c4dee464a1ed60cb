import type { Generation } from '@mediagen/shared';
import { useId } from 'react';
import { cancelTokenNotice } from '../kind-texts';

interface CancelButtonProps {
  generation: Generation;
  canceling: boolean;
  onCancel: () => void;
  className?: string;
}

/**
 * Cancel for a queued or running generation, with what canceling now does to its token said beside it
 * (and read with the button), before the creator decides.
 */
export function CancelButton({ generation, canceling, onCancel, className = '' }: CancelButtonProps) {
  const noticeId = useId();
  return (
    <div className={`flex flex-wrap items-center gap-x-3 gap-y-1 ${className}`}>
      <button
        type="button"
        className="btn-secondary px-3 py-1.5 text-sm text-rose-700 dark:text-rose-300"
        aria-describedby={noticeId}
        onClick={onCancel}
        disabled={canceling}
      >
        {canceling ? 'Canceling…' : `Cancel ${generation.kind}`}
      </button>
      <p id={noticeId} className="text-xs text-slate-600 dark:text-slate-400">
        {cancelTokenNotice(generation)}
      </p>
    </div>
  );
}
