import { validateCredentials } from '@mediagen/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Modal } from '@/components/ui/Modal';
import { TextField } from '@/components/ui/TextField';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { useCredentialSignIn, type CredentialMode } from '../hooks/use-credential-sign-in';
import { useSocialSignIn } from '../hooks/use-social-sign-in';
import { OrDivider, SocialSignInButtons } from './SocialSignInButtons';

/**
 * 'sign-in-or-up': the landing modal (6-character rule, close button only).
 * 'sign-in-to-continue': the dashboard's prompt (required fields only when signing in, also closes on a
 * backdrop click). Both offer to create an account: a newcomer meets this dialog before any other form.
 */
export type AuthModalVariant = 'sign-in-or-up' | 'sign-in-to-continue';

interface AuthModalProps {
  variant: AuthModalVariant;
  /** Which form shows first; the creator can switch. */
  initialMode?: CredentialMode;
  onClose: () => void;
  onSignedIn: () => void;
}

export function AuthModal({ variant, initialMode = 'sign-in', onClose, onSignedIn }: AuthModalProps) {
  const [mode, setMode] = useState<CredentialMode>(initialMode);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // A failure is said in the dialog, beside the fields: a toast would sit over the open dialog.
  const { submitting, submitCredentials } = useCredentialSignIn(onSignedIn, setProblem);
  const social = useSocialSignIn(onSignedIn, setProblem);
  const problemId = useId();
  const toContinue = variant === 'sign-in-to-continue';

  useEffect(() => {
    // Warm the SDK while the user types, so submitting does not wait for the download.
    loadFirebaseAuth().catch(() => undefined);
  }, []);

  function toggleMode() {
    setMode((current) => (current === 'sign-in' ? 'sign-up' : 'sign-in'));
    setEmail('');
    setPassword('');
    setProblem(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A new password always meets the length rule (the auth service refuses a shorter one anyway).
    const invalid = validateCredentials(email, password, { enforceLength: mode === 'sign-up' || !toContinue });
    setProblem(invalid);
    if (invalid !== null) return;
    await submitCredentials(mode, email, password);
  }

  const idleLabel = mode === 'sign-up' ? 'Sign Up' : 'Sign In';
  const busyLabel = toContinue && mode === 'sign-in' ? 'Signing in...' : 'Processing...';
  const title = mode === 'sign-up' ? 'Create Account' : toContinue ? 'Sign in to continue' : 'Sign In';

  return (
    <Modal title={title} onClose={onClose} closeOnBackdropClick={toContinue}>
      <SocialSignInButtons
        pendingProvider={social.pendingProvider}
        disabled={submitting}
        onSelect={(provider) => {
          setProblem(null);
          void social.signInWith(provider);
        }}
      />
      <OrDivider />
      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          aria-describedby={problem === null ? undefined : problemId}
          data-autofocus
        />
        <TextField
          label="Password"
          type="password"
          autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
          value={password}
          onValueChange={setPassword}
          aria-describedby={problem === null ? undefined : problemId}
        />
        {problem !== null && (
          <p id={problemId} role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
            {problem}
          </p>
        )}
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? busyLabel : idleLabel}
        </button>
      </form>
      <p className="mt-5 text-center text-sm text-slate-600 dark:text-slate-400">
        {mode === 'sign-in' ? "Don't have an account?" : 'Already have an account?'}{' '}
        <button
          type="button"
          className="font-semibold text-violet-700 underline-offset-4 hover:underline dark:text-violet-300"
          onClick={toggleMode}
        >
          {mode === 'sign-in' ? 'Create account' : 'Sign in instead'}
        </button>
      </p>
    </Modal>
  );
}
