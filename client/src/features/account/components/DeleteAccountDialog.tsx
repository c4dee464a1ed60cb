import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Modal } from '@/components/ui/Modal';
import { TextField } from '@/components/ui/TextField';
import { ApiRequestError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { closeAccount } from '../api/get-me';

/** What the creator types to confirm, so a stray click never closes an account. */
const CONFIRMATION_WORD = 'delete';

interface DeleteAccountDialogProps {
  onClose: () => void;
  /** Forgets the session in this browser once the server has closed the account. */
  onAccountClosed: () => Promise<void>;
}

export function DeleteAccountDialog({ onClose, onAccountClosed }: DeleteAccountDialogProps) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmed = typed.trim().toLowerCase() === CONFIRMATION_WORD;

  async function deleteAccount() {
    setDeleting(true);
    setError(null);
    try {
      await closeAccount();
      // The server has ended every session; this browser forgets its own.
      await onAccountClosed().catch(() => undefined);
      await navigate('/');
      notify.success('Your account and everything you made were deleted.');
    } catch (caught) {
      setError(caught instanceof ApiRequestError ? caught.message : 'Could not delete your account - please try again');
      setDeleting(false);
    }
  }

  return (
    <Modal title="Delete your account?" onClose={onClose} closeOnBackdropClick={!deleting}>
      <form
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed) void deleteAccount();
        }}
      >
        <p className="text-slate-600 dark:text-slate-300">
          This deletes your sign-in account, every generation you made and their files, at once and for good. Links to
          your files stop working.
        </p>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          So that free tokens are not renewed by signing up again, we keep an anonymous trace until your 30-day token
          period ends: a one-way hash of your email and how many tokens you used, nothing else.
        </p>
        <TextField
          label={
            <>
              Type <strong>{CONFIRMATION_WORD}</strong> to confirm
            </>
          }
          autoComplete="off"
          value={typed}
          onValueChange={setTyped}
          data-autofocus
        />
        {error !== null && (
          <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={onClose} disabled={deleting}>
            Keep my account
          </button>
          <button
            type="submit"
            className="btn-primary from-rose-600 to-rose-600 hover:from-rose-500 hover:to-rose-500"
            disabled={!confirmed || deleting}
          >
            {deleting ? 'Deleting…' : 'Delete account'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
