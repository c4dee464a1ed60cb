import { AUTH_MESSAGES } from '@mediagen/shared';
import { useState } from 'react';
import { notify } from '@/lib/notify';
import { describeAuthError, signInWithCredentials, signUpWithCredentials } from '../api/auth-actions';

export type CredentialMode = 'sign-in' | 'sign-up';

/** Email and password sign-in or sign-up, with the spec's toasts, for every form that offers it. */
export function useCredentialSignIn(onSignedIn: () => void) {
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
      notify.error(describeAuthError(error));
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, submitCredentials };
}
