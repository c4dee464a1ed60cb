import { inject } from 'vitest';
import {
  createEmulatorUser,
  deleteEmulatorUserWithOwnToken,
  signInEmulatorUser,
  type EmulatorUser,
} from './emulator-users';

/** The Auth emulator that emulator-setup.ts provided to this run. */
export function authEmulatorHost(): string {
  return inject('authEmulatorHost');
}

/** A fresh account in this run's Auth emulator, signed in. */
export function createTestUser(email?: string): Promise<EmulatorUser> {
  return createEmulatorUser(authEmulatorHost(), email);
}

/** A new ID token for an account of this run's emulator, with its current custom claims. */
export function signIn(email: string): Promise<string> {
  return signInEmulatorUser(authEmulatorHost(), email);
}

/** Deletes an account of this run's emulator with its own ID token, as its owner can without the app. */
export function deleteOwnAccount(idToken: string): Promise<void> {
  return deleteEmulatorUserWithOwnToken(authEmulatorHost(), idToken);
}

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}
