import { socialSignInSuccess } from '@mediagen/shared';
import { useState } from 'react';
import { notify } from '@/lib/notify';
import {
  describeAuthError,
  isPopupDismissal,
  signInWithSocialProvider,
  type SocialProvider,
} from '../api/auth-actions';
import { sayByToast, type SayAuthProblem } from './use-credential-sign-in';

export function useSocialSignIn(onSignedIn: () => void, sayProblem: SayAuthProblem = sayByToast) {
  const [pendingProvider, setPendingProvider] = useState<SocialProvider | null>(null);

  async function signInWith(provider: SocialProvider) {
    setPendingProvider(provider);
    try {
      await signInWithSocialProvider(provider);
      notify.success(socialSignInSuccess(provider));
      onSignedIn();
    } catch (error) {
      if (!isPopupDismissal(error)) sayProblem(describeAuthError(error));
    } finally {
      setPendingProvider(null);
    }
  }

  return { pendingProvider, signInWith };
}
