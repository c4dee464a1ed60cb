import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

export interface TestUser {
  uid: string;
  email: string;
  idToken: string;
}

export function authEmulatorHost(): string {
  return inject('authEmulatorHost');
}

/** A fresh account in the Auth emulator (its REST API accepts any API key). */
export async function createTestUser(): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.test`;
  const response = await fetch(
    `http://${authEmulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'password-123', returnSecureToken: true }),
    },
  );
  if (!response.ok) throw new Error(`signUp failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { localId: string; idToken: string };
  return { uid: body.localId, email, idToken: body.idToken };
}

/** Signs an existing emulator account in again, so the new ID token carries its current custom claims. */
export async function signIn(email: string): Promise<string> {
  const response = await fetch(
    `http://${authEmulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'password-123', returnSecureToken: true }),
    },
  );
  if (!response.ok) throw new Error(`signIn failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { idToken: string }).idToken;
}
