import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { afterAll, beforeAll, vi } from 'vitest';
import { EMULATOR_PROJECT_ID } from '@mediagen/testing';
import { authEmulatorHost } from '@mediagen/testing/vitest';

/**
 * The identity service's admin API on the Auth emulator, for the tests of the file that calls it: what a
 * user or an operator does there behind our back (revoke sign-ins, disable, delete, set claims).
 */
export function emulatorIdentityAdmin(): () => Auth {
  let app: App | undefined;
  beforeAll(() => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = authEmulatorHost();
    app = initializeApp({ projectId: EMULATOR_PROJECT_ID }, `identity-admin-${randomUUID()}`);
  });
  afterAll(async () => {
    if (app !== undefined) await deleteApp(app);
  });
  return () => {
    if (app === undefined) throw new Error('the identity admin starts before the tests run');
    return getAuth(app);
  };
}

/** Revocation has second precision (as Firebase's own check): act in a later second than the sign-in. */
export async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  await vi.waitUntil(() => Math.floor(Date.now() / 1000) > second, { timeout: 2000, interval: 20 });
}
