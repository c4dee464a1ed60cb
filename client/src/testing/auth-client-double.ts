import { vi } from 'vitest';
import type * as AuthClient from '@/lib/auth-client';
import { createFakeFirebaseAuth, type FakeFirebaseAuth } from './fake-firebase-auth';

/*
 * Stands in for lib/auth-client.ts in every test: setup.ts mocks the module with this one. Test files share
 * their worker's modules, and a module that imports the auth client keeps the copy it was first given, so a
 * file cannot mock it again with answers of its own; it tells these what to answer instead. setup.ts puts
 * the defaults back after each test.
 */

/** By default the Firebase SDK never arrives, as for a visitor who has not asked to sign in. */
export const loadFirebaseAuth = vi.fn<typeof AuthClient.loadFirebaseAuth>(() => new Promise(() => undefined));
export const getIdToken = vi.fn<typeof AuthClient.getIdToken>(async () => 'test-id-token');
export const endSyncedSession = vi.fn<typeof AuthClient.endSyncedSession>(async () => undefined);

/** The auth client loads `fake` as the Firebase SDK and asks it for the ID token. */
export function loadFakeFirebase(fake: FakeFirebaseAuth = createFakeFirebaseAuth()): FakeFirebaseAuth {
  loadFirebaseAuth.mockResolvedValue(fake as unknown as Awaited<ReturnType<typeof AuthClient.loadFirebaseAuth>>);
  getIdToken.mockImplementation(() => fake.getIdToken());
  return fake;
}

export function resetAuthClientDouble(): void {
  for (const double of [loadFirebaseAuth, getIdToken, endSyncedSession]) double.mockReset();
}
