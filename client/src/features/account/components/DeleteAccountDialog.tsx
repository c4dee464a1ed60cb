import { authErrorMessage } from '@mediagen/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Modal } from '@/components/ui/Modal';
import { TextField } from '@/components/ui/TextField';
import { ApiRequestError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { confirmIdentity, identityCheckMethod, type ReauthenticationMethod } from '../api/confirm-identity';
import { closeAccount } from '../api/get-me';

/** What the creator types to confirm, so a stray click never closes an account. */
const CONFIRMATION_WORD = 'delete';

interface DeleteAccountDialogProps {
  onClose: () => void;
  /** Forgets the session in this browser once the server has closed the account. */
  onAccountClosed: () => Promise<void>;
}

/** The words of the submit button: what pressing it will do. */
function submitLabel(deleting: boolean, identityCheck: ReauthenticationMethod | null): string {
  if (deleting) return 'Deleting…';
  if (identityCheck === null) return 'Delete account';
  return identityCheck === 'password' ? 'Confirm and delete' : `Sign in with ${identityCheck} and delete`;
}

function messageOf(caught: unknown): string {
  if (caught instanceof ApiRequestError) return caught.message;
  // A failed sign-in (a wrong password, a closed popup) is the identity service's error.
  const code = (caught as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return authErrorMessage({ code, message: (caught as Error).message });
  return 'Could not delete your account - please try again';
}

/**
 * Closing the account. The server takes it only from a sign-in of the last few minutes; when the one in
 * this browser is older, the dialog asks the user to confirm it is them (their password, or their social
 * provider's popup), signs them in again and asks the server once more.
 */
export function DeleteAccountDialog({ onClose, onAccountClosed }: DeleteAccountDialogProps) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Set once the server asked for a recent sign-in: how this user proves it is them.
  const [identityCheck, setIdentityCheck] = useState<ReauthenticationMethod | null>(null);
  const confirmed = typed.trim().toLowerCase() === CONFIRMATION_WORD;
  const ready = confirmed && (identityCheck !== 'password' || password !== '');

  async function deleteAccount() {
    setDeleting(true);
    setError(null);
    try {
      if (identityCheck === 'password') await confirmIdentity({ method: 'password', password });
      else if (identityCheck !== null) await confirmIdentity({ method: identityCheck });
      await closeAccount();
      // The server has ended every session; this browser forgets its own.
      await onAccountClosed().catch(() => undefined);
      await navigate('/');
      notify.success('Your account and everything you made were deleted.');
    } catch (caught) {
      if (caught instanceof ApiRequestError && caught.code === 'REAUTHENTICATION_REQUIRED') {
        const method = await identityCheckMethod().catch(() => null);
        setIdentityCheck(method);
        // With no way to sign in again here, the server's message says what to do.
        if (method === null) setError(caught.message);
      } else {
        setError(messageOf(caught));
      }
      setDeleting(false);
    }
  }

  return (
    <Modal title="Delete your account?" onClose={onClose} closeOnBackdropClick={!deleting}>
      <form
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) void deleteAccount();
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
        {identityCheck !== null && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            For your security, confirm it is you:{' '}
            {identityCheck === 'password' ? 'enter your password.' : `sign in with ${identityCheck} again.`}
          </p>
        )}
        {identityCheck === 'password' && (
          <TextField
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={password}
            onValueChange={setPassword}
          />
        )}
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
            disabled={!ready || deleting}
          >
            {submitLabel(deleting, identityCheck)}
          </button>
        </div>
      </form>
    </Modal>
  );
}
