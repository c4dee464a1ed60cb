import { randomUUID } from 'node:crypto';

export interface EmulatorUser {
  uid: string;
  email: string;
  idToken: string;
}

export const TEST_PASSWORD = 'password-123';

async function identityToolkit<T>(host: string, method: string, body: unknown): Promise<T> {
  // The emulator's REST API accepts any API key.
  const response = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A fresh account in the Auth emulator at `host`, signed in. */
export async function createEmulatorUser(
  host: string,
  email = `user-${randomUUID()}@example.test`,
): Promise<EmulatorUser> {
  const body = await identityToolkit<{ localId: string; idToken: string }>(host, 'signUp', {
    email,
    password: TEST_PASSWORD,
    returnSecureToken: true,
  });
  return { uid: body.localId, email, idToken: body.idToken };
}

/** Signs an existing account in again: the new ID token carries its current custom claims. */
export async function signInEmulatorUser(host: string, email: string): Promise<string> {
  const body = await identityToolkit<{ idToken: string }>(host, 'signInWithPassword', {
    email,
    password: TEST_PASSWORD,
    returnSecureToken: true,
  });
  return body.idToken;
}

/**
 * Deletes an account as its owner can, straight at the identity service with their own ID token
 * (Identity Toolkit `accounts:delete`), without the app knowing.
 */
export async function deleteEmulatorUserWithOwnToken(host: string, idToken: string): Promise<void> {
  await identityToolkit<unknown>(host, 'delete', { idToken });
}
