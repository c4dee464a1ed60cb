/**
 * Everything that touches the Firebase SDK. It is large, so it is only ever loaded through
 * `loadFirebaseAuth()` (auth-client.ts), never imported statically.
 */
import { initializeApp } from 'firebase/app';
import {
  applyActionCode,
  confirmPasswordReset,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  EmailAuthProvider,
  getAuth,
  GithubAuthProvider,
  GoogleAuthProvider,
  onAuthStateChanged,
  reauthenticateWithCredential,
  reauthenticateWithPopup,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut,
  verifyPasswordResetCode,
} from 'firebase/auth';
import { requireAppConfig } from '@/config/app-config';

export type SocialProvider = 'Google' | 'GitHub';

const config = requireAppConfig();
const auth = getAuth(initializeApp(config.firebase));
if (config.authEmulatorHost !== undefined) {
  connectAuthEmulator(auth, `http://${config.authEmulatorHost}`, { disableWarnings: true });
}

const PROVIDERS: Record<SocialProvider, () => GoogleAuthProvider | GithubAuthProvider> = {
  Google: () => new GoogleAuthProvider(),
  GitHub: () => new GithubAuthProvider(),
};

/** How a signed-in user proves it is them again: their password, or the social provider they signed in with. */
export type ReauthenticationMethod = 'password' | SocialProvider;

const REAUTHENTICATION_BY_PROVIDER_ID: Record<string, ReauthenticationMethod> = {
  [EmailAuthProvider.PROVIDER_ID]: 'password',
  [GoogleAuthProvider.PROVIDER_ID]: 'Google',
  [GithubAuthProvider.PROVIDER_ID]: 'GitHub',
};

/** Each sign-in resolves with the email the identity service reports (spec §7). */
export async function signInWithEmail(email: string, password: string): Promise<string> {
  const { user } = await signInWithEmailAndPassword(auth, email, password);
  return user.email ?? email;
}

export async function signUpWithEmail(email: string, password: string): Promise<string> {
  const { user } = await createUserWithEmailAndPassword(auth, email, password);
  return user.email ?? email;
}

export async function signInWithProvider(provider: SocialProvider): Promise<string> {
  const { user } = await signInWithPopup(auth, PROVIDERS[provider]());
  return user.email ?? '';
}

/**
 * Account basics. The emails' links lead to /auth/action on this site when the Firebase project's action
 * URL is set to it (docs/OPERATING.md); `continueUrl` brings the user back to sign in afterwards.
 */
export function sendPasswordReset(email: string): Promise<void> {
  return sendPasswordResetEmail(auth, email, { url: `${window.location.origin}/login` });
}

/** The email the reset code was sent to; rejects when the code is invalid, used or expired. */
export function checkPasswordResetCode(code: string): Promise<string> {
  return verifyPasswordResetCode(auth, code);
}

export function resetPassword(code: string, newPassword: string): Promise<void> {
  return confirmPasswordReset(auth, code, newPassword);
}

export async function sendVerification(): Promise<void> {
  if (auth.currentUser === null) throw new Error('Not signed in');
  await sendEmailVerification(auth.currentUser, { url: `${window.location.origin}/dashboard` });
}

export async function verifyEmail(code: string): Promise<void> {
  await applyActionCode(auth, code);
  // A signed-in user's token says emailVerified from its next refresh.
  await auth.currentUser?.reload();
  await auth.currentUser?.getIdToken(true);
}

/** Whether the signed-in user's email is verified, as the identity service says now. */
export async function isEmailVerified(): Promise<boolean> {
  await auth.authStateReady();
  if (auth.currentUser === null) return false;
  await auth.currentUser.reload();
  return auth.currentUser.emailVerified;
}

/** How the signed-in user can sign in again (a password first, when the account has one); null when signed out. */
export async function reauthenticationMethod(): Promise<ReauthenticationMethod | null> {
  await auth.authStateReady();
  const methods = (auth.currentUser?.providerData ?? []).flatMap(
    (info) => REAUTHENTICATION_BY_PROVIDER_ID[info.providerId] ?? [],
  );
  return methods.includes('password') ? 'password' : (methods[0] ?? null);
}

/** What the user gives to sign in again: their password, or nothing but a provider's popup. */
export type Reauthentication = { method: 'password'; password: string } | { method: SocialProvider };

/**
 * Signs the current user in again, for an action the server lets only a recent sign-in make (closing the
 * account): afterwards their ID token carries the new sign-in time.
 */
export async function reauthenticate(proof: Reauthentication): Promise<void> {
  const user = auth.currentUser;
  if (user === null) throw new Error('Not signed in');
  if (proof.method === 'password') {
    await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email ?? '', proof.password));
  } else {
    await reauthenticateWithPopup(user, PROVIDERS[proof.method]());
  }
}

export function signOutUser(): Promise<void> {
  return signOut(auth);
}

export function watchAuthState(listener: (session: { email: string } | null) => void): () => void {
  return onAuthStateChanged(auth, (user) => listener(user === null ? null : { email: user.email ?? '' }));
}

/** An ID token issued less than `maxAgeMs` ago (a new one when the current one is older), or null. */
export async function freshIdToken(maxAgeMs: number): Promise<string | null> {
  await auth.authStateReady();
  const user = auth.currentUser;
  if (user === null) return null;
  const current = await user.getIdTokenResult();
  return Date.now() - Date.parse(current.issuedAtTime) < maxAgeMs ? current.token : user.getIdToken(true);
}

/** A valid ID token (the SDK refreshes it before expiry, or now when forced), or null when signed out. */
export async function getIdToken(forceRefresh = false): Promise<string | null> {
  await auth.authStateReady();
  return auth.currentUser === null ? null : auth.currentUser.getIdToken(forceRefresh);
}
