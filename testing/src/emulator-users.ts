import { randomUUID } from 'node:crypto';

export interface EmulatorUser {
  uid: string;
  email: string;
  idToken: string;
}

export const TEST_PASSWORD = 'password-123';

async function identityToolkit<T>(
  host: string,
  method: string,
  body: unknown,
  caller: 'user' | 'owner' = 'user',
): Promise<T> {
  // The emulator's REST API accepts any API key. A connection of its own per call: the emulator closes an
  // idle connection after 5 s, and on a loaded host a kept one can be reused just as it closes ("other
  // side closed"), which undici does not retry for a POST.
  const response = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=any`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      connection: 'close',
      // The emulator takes "owner" as the project owner's credentials, for the admin-only methods.
      ...(caller === 'owner' ? { authorization: 'Bearer owner' } : {}),
    },
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

/** The uids of `uids` the emulator still has (the emulator's admin lookup, as the owner of the project). */
export async function existingEmulatorUsers(host: string, uids: string[]): Promise<string[]> {
  const body = await identityToolkit<{ users?: { localId: string }[] }>(host, 'lookup', { localId: uids }, 'owner');
  return (body.users ?? []).map((user) => user.localId);
}

/** Changes an account's email as its owner can, with their own ID token, without the app knowing. */
export async function changeEmulatorUserEmail(host: string, idToken: string, email: string): Promise<void> {
  await identityToolkit<unknown>(host, 'update', { idToken, email });
}
