import { vi } from 'vitest';
import type { Reauthentication, ReauthenticationMethod } from '@/lib/firebase-auth';

/** Stands in for lib/firebase-auth.ts, the only module that talks to Firebase. */
export function createFakeFirebaseAuth() {
  return {
    signInWithEmail: vi.fn(async (email: string) => email),
    signUpWithEmail: vi.fn(async (email: string) => email),
    signInWithProvider: vi.fn(async () => 'social@example.com'),
    signOutUser: vi.fn(async () => undefined),
    watchAuthState: vi.fn(() => () => undefined),
    getIdToken: vi.fn(async (): Promise<string | null> => 'test-id-token'),
    isEmailVerified: vi.fn(async () => true),
    reauthenticationMethod: vi.fn(async (): Promise<ReauthenticationMethod | null> => 'password'),
    reauthenticate: vi.fn(async (_proof: Reauthentication) => undefined),
  };
}

export type FakeFirebaseAuth = ReturnType<typeof createFakeFirebaseAuth>;

/** A promise the test settles itself, to look at busy states. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}
