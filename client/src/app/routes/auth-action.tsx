import { MIN_PASSWORD_LENGTH } from '@mediagen/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { TextField } from '@/components/ui/TextField';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { useDocumentTitle } from '@/lib/use-document-title';

type Step =
  | { name: 'checking' }
  | { name: 'choose-password'; email: string }
  | { name: 'saving'; email: string }
  | { name: 'done'; message: string }
  | { name: 'failed'; message: string };

const LINK_FAILED = 'This link is invalid or has expired. Ask for a new one.';

/**
 * A verification code works once, and this page can mount twice for one visit (signing in re-renders the
 * layout around it): each code is applied once per page load, and every mount hears how that went.
 */
const verifications = new Map<string, Promise<void>>();
function verifyOnce(code: string): Promise<void> {
  let pending = verifications.get(code);
  if (pending === undefined) {
    pending = loadFirebaseAuth().then((firebaseAuth) => firebaseAuth.verifyEmail(code));
    verifications.set(code, pending);
  }
  return pending;
}

/**
 * Where the account emails' links lead (Firebase's action URL): `mode=resetPassword` asks for a new
 * password, `mode=verifyEmail` confirms the address. Each code works once.
 */
export function AuthActionPage() {
  useDocumentTitle('Your account');
  const [params] = useSearchParams();
  const mode = params.get('mode');
  const code = params.get('oobCode') ?? '';
  const [step, setStep] = useState<Step>({ name: 'checking' });
  const [password, setPassword] = useState('');

  useEffect(() => {
    let current = true;
    const settle = (next: Step) => {
      if (current) setStep(next);
    };
    void loadFirebaseAuth().then(async (firebaseAuth) => {
      if (mode === 'resetPassword') {
        await firebaseAuth.checkPasswordResetCode(code).then(
          (email) => settle({ name: 'choose-password', email }),
          () => settle({ name: 'failed', message: LINK_FAILED }),
        );
      } else if (mode === 'verifyEmail') {
        await verifyOnce(code).then(
          () => settle({ name: 'done', message: 'Your email is verified.' }),
          () => settle({ name: 'failed', message: LINK_FAILED }),
        );
      } else {
        settle({ name: 'failed', message: 'This link is not one we know.' });
      }
    });
    return () => {
      current = false;
    };
  }, [mode, code]);

  async function save(event: FormEvent, email: string) {
    event.preventDefault();
    setStep({ name: 'saving', email });
    try {
      const firebaseAuth = await loadFirebaseAuth();
      await firebaseAuth.resetPassword(code, password);
      setStep({ name: 'done', message: 'Your password is changed. Sign in with the new one.' });
    } catch {
      setStep({ name: 'failed', message: LINK_FAILED });
    }
  }

  return (
    <div className="flex justify-center px-4 py-14 sm:py-20">
      <div className="card grid w-full max-w-md gap-4 p-8">
        <h1 className="text-2xl font-bold text-slate-900 dark:text-white">
          {mode === 'verifyEmail' ? 'Verify your email' : 'Choose a new password'}
        </h1>
        {step.name === 'checking' && <p role="status">Checking the link…</p>}
        {(step.name === 'choose-password' || step.name === 'saving') && (
          <form onSubmit={(event) => void save(event, step.email)} className="grid gap-4">
            <p className="text-slate-600 dark:text-slate-300">For {step.email}</p>
            <TextField
              label="New password"
              type="password"
              required
              minLength={MIN_PASSWORD_LENGTH}
              autoComplete="new-password"
              value={password}
              onValueChange={setPassword}
            />
            <button type="submit" className="btn-primary w-full" disabled={step.name === 'saving'}>
              {step.name === 'saving' ? 'Saving...' : 'Save password'}
            </button>
          </form>
        )}
        {step.name === 'done' && (
          <>
            <p role="status" className="text-emerald-700 dark:text-emerald-300">
              {step.message}
            </p>
            <Link to={mode === 'verifyEmail' ? '/dashboard' : '/login'} className="btn-primary">
              {mode === 'verifyEmail' ? 'Go to the dashboard' : 'Sign in'}
            </Link>
          </>
        )}
        {step.name === 'failed' && (
          <p role="alert" className="text-rose-700 dark:text-rose-300">
            {step.message}
          </p>
        )}
      </div>
    </div>
  );
}
