import { AUTH_MESSAGES } from '@mediagen/shared';
import { notify } from '@/lib/notify';
import { signOutEverywhere } from './api/auth-actions';

/** Spec §4: sign out, go home, then say so. */
export async function logOut(goHome: () => Promise<void> | void): Promise<void> {
  await signOutEverywhere();
  await goHome();
  notify.success(AUTH_MESSAGES.loggedOut);
}
