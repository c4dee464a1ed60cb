import type { CookieSession } from '../auth/cookie-sessions';
import { refusalOf, type AccountStatus } from '../auth/identity-verifier';

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

/** The admin UI's own session, or the app's (token sync), which also opens the admin pages for an admin. */
export type SessionKind = 'admin' | 'app';

/**
 * Whether a session must end, given its account as the identity service holds it now: the sign-in that
 * opened it was revoked, the account disabled or deleted, or (an admin session) it is no admin any more.
 * An app session of someone who is not an admin stays: it is theirs for the app.
 */
export function sessionEnded(
  kind: SessionKind,
  session: CookieSession,
  account: AccountStatus,
  adminEmails: readonly string[],
): boolean {
  if (refusalOf(account, session.authTimeSeconds) !== null) return true;
  return kind === 'admin' && !isAdmin(account, adminEmails);
}

export type AdminOutcome = 'admin' | 'anonymous' | 'forbidden';

export interface AdminSessionRules {
  adminEmails: readonly string[];
  /** ADMIN_SESSION_TTL_SECONDS, in ms: no session lends admin rights for longer. */
  adminSessionTtlMs: number;
}

/** What a cookie session may do on the admin pages now, and whether it is over. */
export function adminAccessBySession(
  kind: SessionKind,
  session: CookieSession,
  account: AccountStatus,
  rules: AdminSessionRules,
  nowMs: number,
): { outcome: AdminOutcome; endSession: boolean } {
  const endSession = sessionEnded(kind, session, account, rules.adminEmails);
  if (refusalOf(account, session.authTimeSeconds) !== null) return { outcome: 'anonymous', endSession };
  if (!isAdmin(account, rules.adminEmails)) return { outcome: 'forbidden', endSession };
  // The app's session may last hours or days; the admin rights it lends last no longer than an admin
  // session of its own would. Past that the admin signs in at /admin, and the app session stays the app's.
  if (kind === 'app' && nowMs - session.createdAtMs > rules.adminSessionTtlMs)
    return { outcome: 'anonymous', endSession };
  return { outcome: 'admin', endSession };
}
