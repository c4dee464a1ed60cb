import { validateCredentials } from '@mediagen/shared';
import { useId, useState, type FormEvent } from 'react';
import { TextField } from '@/components/ui/TextField';
import { useCredentialSignIn, type CredentialMode } from '../hooks/use-credential-sign-in';
import { useSocialSignIn } from '../hooks/use-social-sign-in';
import { PasswordResetRequest } from './PasswordResetRequest';
import { OrDivider, SocialSignInButtons } from './SocialSignInButtons';

interface LoginFormProps {
  /** 'sign-up' creates the account instead (a new password, the 6-character rule, no reset link). */
  mode?: CredentialMode;
  onSignedIn: () => void;
}

/** The Login screen's form. Spec §5: both fields required and the email format checked by the browser. */
export function LoginForm({ mode = 'sign-in', onSignedIn }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  const { submitting, submitCredentials } = useCredentialSignIn(onSignedIn);
  const social = useSocialSignIn(onSignedIn);
  const problemId = useId();
  const signingUp = mode === 'sign-up';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (signingUp) {
      const invalid = validateCredentials(email, password, { enforceLength: true });
      setProblem(invalid);
      if (invalid !== null) return;
    }
    await submitCredentials(mode, email, password);
  }

  if (resetting) return <PasswordResetRequest initialEmail={email} onBack={() => setResetting(false)} />;

  const describedBy = problem === null ? undefined : problemId;
  const idleLabel = signingUp ? 'Create Account' : 'Sign In';
  const busyLabel = signingUp ? 'Creating account...' : 'Signing in...';

  return (
    <>
      <SocialSignInButtons
        pendingProvider={social.pendingProvider}
        disabled={submitting}
        onSelect={(provider) => void social.signInWith(provider)}
      />
      <OrDivider />
      <form onSubmit={(event) => void submit(event)} className="grid gap-4">
        <TextField
          label="Email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          aria-describedby={describedBy}
        />
        <TextField
          label="Password"
          type="password"
          required
          autoComplete={signingUp ? 'new-password' : 'current-password'}
          value={password}
          onValueChange={setPassword}
          aria-describedby={describedBy}
        >
          {!signingUp && (
            <button
              type="button"
              className="mt-2 text-sm font-medium text-violet-700 hover:underline dark:text-violet-300"
              onClick={() => setResetting(true)}
            >
              Forgot password?
            </button>
          )}
        </TextField>
        {problem !== null && (
          <p id={problemId} role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
            {problem}
          </p>
        )}
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? busyLabel : idleLabel}
        </button>
      </form>
    </>
  );
}
