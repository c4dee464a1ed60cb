import type { AccountStatus } from '../auth/identity-verifier';

/**
 * An admin is an account with the custom claim `admin: true`, or one whose email is listed in
 * ADMIN_EMAILS and verified: anyone can register an unclaimed listed address, only its owner can verify it.
 */
export function isAdmin(
  account: Pick<AccountStatus, 'admin' | 'email' | 'emailVerified'>,
  adminEmails: readonly string[],
): boolean {
  if (account.admin) return true;
  return account.emailVerified && account.email !== null && adminEmails.includes(account.email.toLowerCase());
}
