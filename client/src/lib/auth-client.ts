import { useAuthStore } from '@/stores/auth-store';

type FirebaseAuthModule = typeof import('./firebase-auth');

let loading: Promise<FirebaseAuthModule> | undefined;

/**
 * Loads the Firebase SDK on demand, so it stays out of the landing page's chunk. The first load
 * also subscribes the persisted session to Firebase's auth-state changes (spec §4).
 */
export function loadFirebaseAuth(): Promise<FirebaseAuthModule> {
  loading ??= import('./firebase-auth').then(
    (firebaseAuth) => {
      firebaseAuth.watchAuthState((session) => {
        const { signedIn, signedOut, isAuthenticated } = useAuthStore.getState();
        if (session !== null) signedIn(session.email);
        else if (isAuthenticated) signedOut();
      });
      return firebaseAuth;
    },
    (error: unknown) => {
      // A failed chunk load (offline, new deploy) must not poison every later attempt.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export async function getIdToken(forceRefresh = false): Promise<string | null> {
  const firebaseAuth = await loadFirebaseAuth();
  return firebaseAuth.getIdToken(forceRefresh);
}
