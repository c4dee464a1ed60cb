import type { AuthUser } from '../auth/identity-verifier';

/** An admin is a Firebase identity with the custom claim `admin: true`, or one listed in ADMIN_EMAILS. */
export function isAdmin(user: AuthUser, adminEmails: readonly string[]): boolean {
  if (user.admin === true) return true;
  return user.email !== null && adminEmails.includes(user.email.toLowerCase());
}
