import { AUTH_MESSAGES } from '@mediagen/shared';
import { useState } from 'react';
import { notify } from '@/lib/notify';
import { describeAuthError, signInWithCredentials, signUpWithCredentials } from '../api/auth-actions';

export type CredentialMode = 'sign-in' | 'sign-up';

/** Where a failed sign-in is said: a toast (the spec's, on /login) unless the form says it itself. */
export type SayAuthProblem = (message: string) => void;

export const sayByToast: SayAuthProblem = (message) => notify.error(message);

/**
 * Email and password sign-in or sign-up, with the spec's toasts, for every form that offers it. A dialog
 * passes `sayProblem` to say a failure inside itself: toasts never cover an open dialog.
 */
export function useCredentialSignIn(onSignedIn: () => void, sayProblem: SayAuthProblem = sayByToast) {
  const [submitting, setSubmitting] = useState(false);

  async function submitCredentials(mode: CredentialMode, email: string, password: string) {
    setSubmitting(true);
    try {
      if (mode === 'sign-up') {
        await signUpWithCredentials(email, password);
        notify.success(AUTH_MESSAGES.accountCreated);
      } else {
        await signInWithCredentials(email, password);
        notify.success(AUTH_MESSAGES.signedIn);
      }
      onSignedIn();
    } catch (error) {
      sayProblem(describeAuthError(error));
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, submitCredentials };
}
