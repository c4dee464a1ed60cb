import { useId, useState, type FormEvent } from 'react';
import { TextField } from '@/components/ui/TextField';
import { loadFirebaseAuth } from '@/lib/auth-client';

/**
 * "Forgot password?": sends Firebase's reset email. The answer is the same whether or not an account has
 * that address, so the form tells no one who has an account.
 */
export function PasswordResetRequest({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const titleId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setState('sending');
    try {
      const firebaseAuth = await loadFirebaseAuth();
      await firebaseAuth.sendPasswordReset(email.trim());
      setState('sent');
    } catch (error) {
      const code = (error as { code?: string }).code;
      setState(code === 'auth/user-not-found' ? 'sent' : 'failed');
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-4" aria-labelledby={titleId}>
      <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-white">
        Reset your password
      </h2>
      <TextField label="Email" type="email" required autoComplete="email" value={email} onValueChange={setEmail} />
      {state === 'sent' && (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
          If an account uses {email.trim()}, a link to choose a new password is on its way.
        </p>
      )}
      {state === 'failed' && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          Could not send the email - please try again.
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={state === 'sending'}>
        {state === 'sending' ? 'Sending...' : 'Send reset link'}
      </button>
      <button
        type="button"
        className="text-sm font-medium text-violet-700 hover:underline dark:text-violet-300"
        onClick={onBack}
      >
        Back to sign in
      </button>
    </form>
  );
}
