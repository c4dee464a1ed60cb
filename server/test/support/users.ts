import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { EMULATOR_PROJECT_ID, type EmulatorUser } from '@mediagen/testing';
import { authEmulatorHost, createTestUser, signIn } from '@mediagen/testing/vitest';
import type { AuthUser } from '../../src/auth/identity-verifier';

export type TestUser = EmulatorUser;
export { createTestUser, signIn };

/** A signed-in user as a service sees one, for tests that call services without going through HTTP. */
export function signedInAs(uid: string): AuthUser {
  return {
    uid,
    email: null,
    emailVerified: false,
    authTimeSeconds: 0,
    tokenIssuedAtMs: Date.now(),
    tokenExpiresAtMs: Date.now() + 3_600_000,
  };
}

/**
 * A user with the `admin` custom claim, set through the Admin SDK against the Auth emulator exactly as in
 * production, and signed in again so the ID token carries it.
 */
export async function createAdminUser(): Promise<TestUser> {
  const user = await createTestUser();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = authEmulatorHost();
  const firebase = initializeApp({ projectId: EMULATOR_PROJECT_ID }, `admin-${randomUUID()}`);
  try {
    await getAuth(firebase).setCustomUserClaims(user.uid, { admin: true });
  } finally {
    await deleteApp(firebase);
  }
  return { ...user, idToken: await signIn(user.email) };
}
