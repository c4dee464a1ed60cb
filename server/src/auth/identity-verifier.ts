import { randomUUID } from 'node:crypto';
import { applicationDefault, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import type { ServerConfig } from '../config';

export interface AuthUser {
  uid: string;
  email: string | null;
  /** The `admin: true` custom claim (set with `getAuth().setCustomUserClaims(uid, { admin: true })`). */
  admin?: boolean;
}

/** The one place that knows how an ID token becomes a user; HTTP and Socket.IO both ask it. */
export interface IdentityVerifier {
  /** Resolves the user, or rejects for a missing, malformed, expired or foreign token. */
  verify(idToken: string): Promise<AuthUser>;
  close(): Promise<void>;
}

/**
 * Firebase Auth through firebase-admin. Each call makes its own named app, so several servers can live
 * in one process (the tests do that) and each deletes only its own app on close.
 */
export function createFirebaseVerifier(firebase: ServerConfig['firebase']): IdentityVerifier {
  if (firebase.authEmulatorHost !== null) {
    // firebase-admin only reads the emulator host from the environment, at each call.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = firebase.authEmulatorHost;
  }
  const app: App = initializeApp(
    {
      projectId: firebase.projectId,
      // The emulator needs no credentials; elsewhere GOOGLE_APPLICATION_CREDENTIALS or the platform's default.
      ...(firebase.authEmulatorHost === null ? { credential: applicationDefault() } : {}),
    },
    `mediagen-server-${randomUUID()}`,
  );
  const auth = getAuth(app);
  return {
    async verify(idToken) {
      const decoded = await auth.verifyIdToken(idToken);
      return { uid: decoded.uid, email: decoded.email ?? null, admin: decoded.admin === true };
    },
    close: () => deleteApp(app),
  };
}
