import { randomUUID } from 'node:crypto';
import { applicationDefault, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { LRUCache } from 'lru-cache';
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

/** Clients send the same ID token for up to an hour; most requests find it here. */
const VERIFIED_TOKEN_CACHE_SIZE = 50_000;

/**
 * Firebase Auth through firebase-admin. Each call makes its own named app, so several servers can live
 * in one process (the tests do that) and each deletes only its own app on close.
 *
 * A verified token is remembered until it expires, so a client's every request doesn't pay for a
 * signature check (or, with the emulator, a lookup). As with `verifyIdToken` without `checkRevoked`, a
 * revoked token is accepted until it expires.
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
  const verified = new LRUCache<string, AuthUser>({ max: VERIFIED_TOKEN_CACHE_SIZE });
  return {
    async verify(idToken) {
      const cached = verified.get(idToken);
      if (cached !== undefined) return cached;
      const decoded = await auth.verifyIdToken(idToken);
      const user = { uid: decoded.uid, email: decoded.email ?? null, admin: decoded.admin === true };
      const remainingMs = decoded.exp * 1000 - Date.now();
      if (remainingMs > 0) verified.set(idToken, user, { ttl: remainingMs });
      return user;
    },
    close: () => deleteApp(app),
  };
}
