/**
 * Everything that touches the Firebase SDK. It is large, so it is only ever loaded through
 * `loadFirebaseAuth()` (auth-client.ts), never imported statically.
 */
import { initializeApp } from 'firebase/app';
import {
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getAuth,
  GithubAuthProvider,
  GoogleAuthProvider,
  onAuthStateChanged,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut,
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

export function signOutUser(): Promise<void> {
  return signOut(auth);
}

export function watchAuthState(listener: (session: { email: string } | null) => void): () => void {
  return onAuthStateChanged(auth, (user) => listener(user === null ? null : { email: user.email ?? '' }));
}

/** A valid ID token (the SDK refreshes it before expiry, or now when forced), or null when signed out. */
export async function getIdToken(forceRefresh = false): Promise<string | null> {
  await auth.authStateReady();
  return auth.currentUser === null ? null : auth.currentUser.getIdToken(forceRefresh);
}
