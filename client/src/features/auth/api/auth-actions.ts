import { authErrorMessage } from '@mediagen/shared';
import { endSyncedSession, loadFirebaseAuth } from '@/lib/auth-client';
import type { SocialProvider } from '@/lib/firebase-auth';
import { useAuthStore } from '@/stores/auth-store';
import { rememberSignedInHere } from '../returning-visitor';

export type { SocialProvider };

/** Spec §4: after any successful sign-in the flag is set and the email stored, before navigating on. */
function recordSignIn(email: string): void {
  useAuthStore.getState().signedIn(email);
  rememberSignedInHere();
}

export async function signInWithCredentials(email: string, password: string): Promise<void> {
  const firebaseAuth = await loadFirebaseAuth();
  recordSignIn(await firebaseAuth.signInWithEmail(email, password));
}

export async function signUpWithCredentials(email: string, password: string): Promise<void> {
  const firebaseAuth = await loadFirebaseAuth();
  recordSignIn(await firebaseAuth.signUpWithEmail(email, password));
}

export async function signInWithSocialProvider(provider: SocialProvider): Promise<void> {
  const firebaseAuth = await loadFirebaseAuth();
  recordSignIn(await firebaseAuth.signInWithProvider(provider));
}

/** Spec §4: logout ends the provider session, then clears the persisted session. */
export async function signOutEverywhere(): Promise<void> {
  const firebaseAuth = await loadFirebaseAuth();
  await endSyncedSession();
  await firebaseAuth.signOutUser();
  useAuthStore.getState().signedOut();
}

type AuthFailure = { code?: string; message?: string };

export function describeAuthError(error: unknown): string {
  return authErrorMessage(typeof error === 'object' && error !== null ? (error as AuthFailure) : null);
}

/** Closing the popup yourself is a choice, not an error worth a toast. */
export function isPopupDismissal(error: unknown): boolean {
  const code = (error as AuthFailure | null)?.code;
  return code === 'auth/popup-closed-by-user' || code === 'auth/cancelled-popup-request';
}
