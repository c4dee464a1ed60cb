import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { UsersIcon } from '@/components/ui/icons';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { notify } from '@/lib/notify';
import { useAuthStore } from '@/stores/auth-store';

const DeleteAccountDialog = lazy(async () => ({
  default: (await import('./DeleteAccountDialog')).DeleteAccountDialog,
}));

interface AccountMenuProps {
  onAccountClosed: () => Promise<void>;
  /** The plan's entries (upgrade, manage billing), given the way to close the menu as one leads away. */
  billingItems: (closeMenu: () => void) => ReactNode;
}

/** The signed-in user's menu: who they are, their library and plan, and closing the account. */
export function AccountMenu({ onAccountClosed, billingItems }: AccountMenuProps) {
  const email = useAuthStore((state) => state.email);
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  // Read when the menu opens: a link opened in another tab may have verified the address since.
  const [verified, setVerified] = useState<boolean | null>(null);

  useEffect(() => {
    if (!open) return;
    let current = true;
    loadFirebaseAuth()
      .then((firebaseAuth) => firebaseAuth.isEmailVerified())
      .then(
        (value) => current && setVerified(value),
        () => current && setVerified(null),
      );
    return () => {
      current = false;
    };
  }, [open]);

  async function sendVerification() {
    try {
      const firebaseAuth = await loadFirebaseAuth();
      await firebaseAuth.sendVerification();
      notify.success(`A verification link is on its way to ${email}`);
    } catch {
      notify.error('Could not send the verification email - please try again');
    }
  }

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div ref={container} className="relative">
      <button
        type="button"
        className="btn-icon"
        aria-label="Account"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <UsersIcon />
      </button>
      {open && (
        <div
          id={menuId}
          data-open-menu
          className="absolute right-0 z-50 mt-2 grid w-64 gap-1 rounded-2xl border border-slate-200 bg-white p-2 shadow-xl dark:border-slate-800 dark:bg-slate-900"
        >
          <p className="truncate px-3 pt-2 text-sm text-slate-500 dark:text-slate-400" title={email}>
            Signed in as <span className="font-medium text-slate-800 dark:text-slate-100">{email}</span>
          </p>
          {verified === true && (
            <p className="px-3 pb-2 text-xs font-semibold text-emerald-700 dark:text-emerald-300">Email verified</p>
          )}
          {verified === false && (
            <div className="grid gap-1 px-3 pb-2">
              <p className="text-xs font-semibold text-amber-800 dark:text-amber-300">Email not verified</p>
              <button
                type="button"
                className="justify-self-start text-sm font-medium text-violet-700 hover:underline dark:text-violet-300"
                onClick={() => void sendVerification()}
              >
                Send verification email
              </button>
            </div>
          )}
          <Link
            to="/library"
            className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
            onClick={() => setOpen(false)}
          >
            Your library
          </Link>
          <Link
            to="/api-keys"
            className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
            onClick={() => setOpen(false)}
          >
            API keys
          </Link>
          <Link
            to="/webhooks"
            className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
            onClick={() => setOpen(false)}
          >
            Webhooks
          </Link>
          {billingItems(() => setOpen(false))}
          <button
            type="button"
            className="rounded-lg px-3 py-2 text-left text-sm font-medium text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-500/10"
            onClick={() => {
              setOpen(false);
              setDeleting(true);
            }}
          >
            Delete account…
          </button>
        </div>
      )}
      {deleting && (
        <Suspense fallback={null}>
          <DeleteAccountDialog onClose={() => setDeleting(false)} onAccountClosed={onAccountClosed} />
        </Suspense>
      )}
    </div>
  );
}
