import { inject } from 'vitest';
import { createEmulatorUser, signInEmulatorUser, type EmulatorUser } from './emulator-users';

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

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}
