import type { EmulatorUser } from '@mediagen/testing';
import type { AuthUser } from '../../src/auth/identity-verifier';

export type TestUser = EmulatorUser;
export { createTestUser, signIn } from '@mediagen/testing/vitest';

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
