import { loadFirebaseAuth } from '@/lib/auth-client';
import type { Reauthentication, ReauthenticationMethod } from '@/lib/firebase-auth';

export type { Reauthentication, ReauthenticationMethod };

/** How the signed-in user proves it is them again; null when no way is known (they are signed out). */
export async function identityCheckMethod(): Promise<ReauthenticationMethod | null> {
  return (await loadFirebaseAuth()).reauthenticationMethod();
}

/** Signs the user in again, so the next API call carries a recent sign-in (the server asked for one). */
export async function confirmIdentity(proof: Reauthentication): Promise<void> {
  await (await loadFirebaseAuth()).reauthenticate(proof);
}
