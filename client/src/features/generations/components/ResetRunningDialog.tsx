import type { Generation } from '@mediagen/shared';
import { Modal } from '@/components/ui/Modal';
import { cancelTokenNotice } from '../kind-texts';

export interface ResetRunningDialogProps {
  generation: Generation;
  canceling: boolean;
  onCancelIt: () => void;
  onKeepRunning: () => void;
  onClose: () => void;
}

/** Reset of a panel whose generation is still queued or running: stop it, or let it finish in the library. */
export function ResetRunningDialog({
  generation,
  canceling,
  onCancelIt,
  onKeepRunning,
  onClose,
}: ResetRunningDialogProps) {
  const { kind } = generation;
  return (
    <Modal title={`Your ${kind} is still running`} onClose={onClose} closeOnBackdropClick>
      <p className="text-slate-600 dark:text-slate-300">
        Resetting clears this panel. Cancel the {kind}, or keep it running: it finishes in your library.
      </p>
      <p className="mt-3 text-sm font-medium text-slate-800 dark:text-slate-100">{cancelTokenNotice(generation)}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onKeepRunning} data-autofocus>
          Keep it running
        </button>
        <button
          type="button"
          className="btn-primary from-rose-600 to-rose-600 hover:from-rose-500 hover:to-rose-500"
          onClick={onCancelIt}
          disabled={canceling}
        >
          {canceling ? 'Canceling…' : 'Cancel it'}
        </button>
      </div>
    </Modal>
  );
}
