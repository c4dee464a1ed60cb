import { requireAppConfig } from '@/config/app-config';
import { useAuthStore } from '@/stores/auth-store';
import { createTokenSync } from './token-sync';

type FirebaseAuthModule = typeof import('./firebase-auth');

let loading: Promise<FirebaseAuthModule> | undefined;
let tokenSync: ReturnType<typeof createTokenSync> | undefined;

/**
 * Loads the Firebase SDK on demand, so it stays out of the landing page's chunk. The first load
 * also subscribes the persisted session to Firebase's auth-state changes (spec §4).
 */
export function loadFirebaseAuth(): Promise<FirebaseAuthModule> {
  loading ??= import('./firebase-auth').then(
    (firebaseAuth) => {
      const sync = createTokenSync(requireAppConfig().tokenSyncUrl, firebaseAuth.freshIdToken);
      tokenSync = sync;
      firebaseAuth.watchAuthState((session) => {
        const { signedIn, signedOut, isAuthenticated } = useAuthStore.getState();
        if (session !== null) {
          signedIn(session.email);
          void sync.signedIn();
        } else if (isAuthenticated) {
          signedOut();
          void sync.signedOut();
        }
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

/** Token sync's sign-out half, for a sign-out made here (a sign-out seen elsewhere is synced by the watcher). */
export async function endSyncedSession(): Promise<void> {
  await tokenSync?.signedOut();
}
