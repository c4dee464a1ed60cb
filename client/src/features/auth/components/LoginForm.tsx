import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/ui/TextField';
import { useCredentialSignIn } from '../hooks/use-credential-sign-in';
import { useSocialSignIn } from '../hooks/use-social-sign-in';
import { PasswordResetRequest } from './PasswordResetRequest';
import { OrDivider, SocialSignInButtons } from './SocialSignInButtons';

/** The Login screen's form. Spec §5: both fields required and the email format checked by the browser. */
export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [resetting, setResetting] = useState(false);
  const { submitting, submitCredentials } = useCredentialSignIn(onSignedIn);
  const social = useSocialSignIn(onSignedIn);

  async function submit(event: FormEvent) {
    event.preventDefault();
    await submitCredentials('sign-in', email, password);
  }

  if (resetting) return <PasswordResetRequest initialEmail={email} onBack={() => setResetting(false)} />;

  return (
    <>
      <SocialSignInButtons
        pendingProvider={social.pendingProvider}
        disabled={submitting}
        onSelect={(provider) => void social.signInWith(provider)}
      />
      <OrDivider />
      <form onSubmit={(event) => void submit(event)} className="grid gap-4">
        <TextField label="Email" type="email" required autoComplete="email" value={email} onValueChange={setEmail} />
        <TextField
          label="Password"
          type="password"
          required
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
        >
          <button
            type="button"
            className="mt-2 text-sm font-medium text-violet-700 hover:underline dark:text-violet-300"
            onClick={() => setResetting(true)}
          >
            Forgot password?
          </button>
        </TextField>
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
    </>
  );
}
