import { describe, expect, it } from 'vitest';
import { adminAccessBySession, sessionEnded } from '../src/admin/admin-access';
import type { CookieSession } from '../src/auth/cookie-sessions';
import type { AccountStatus } from '../src/auth/identity-verifier';

/** The rules a cookie session is judged by on the admin pages, as pure functions of the account read now. */
const NOW = Date.parse('2026-03-02T12:00:00Z');
const RULES = { adminEmails: ['ops@example.test'], adminSessionTtlMs: 15 * 60_000 };

const account = (changes: Partial<AccountStatus> = {}): AccountStatus => ({
  uid: 'u1',
  exists: true,
  disabled: false,
  email: 'someone@example.test',
  emailVerified: true,
  admin: true,
  validSinceMs: null,
  ...changes,
});
const session = (changes: Partial<CookieSession> = {}): CookieSession => ({
  uid: 'u1',
  authTimeSeconds: (NOW - 60_000) / 1000,
  createdAtMs: NOW - 30_000,
  ...changes,
});

describe('a session stands as long as the sign-in that opened it', () => {
  it('ends when the account was revoked after that sign-in, even if the session was opened after the revocation', () => {
    const signedIn = session({ authTimeSeconds: (NOW - 120_000) / 1000, createdAtMs: NOW - 10_000 });
    const revokedBetween = account({ validSinceMs: NOW - 60_000 });
    for (const kind of ['admin', 'app'] as const) {
      expect(sessionEnded(kind, signedIn, revokedBetween, RULES.adminEmails)).toBe(true);
      expect(adminAccessBySession(kind, signedIn, revokedBetween, RULES, NOW)).toEqual({
        outcome: 'anonymous',
        endSession: true,
      });
    }
  });

  it('stands when the revocation came before that sign-in', () => {
    const revokedBefore = account({ validSinceMs: NOW - 300_000 });
    expect(adminAccessBySession('admin', session(), revokedBefore, RULES, NOW)).toEqual({
      outcome: 'admin',
      endSession: false,
    });
  });

  it.each([
    ['disabled', account({ disabled: true })],
    ['deleted', account({ exists: false })],
  ])('ends when the account is %s', (_state, ended) => {
    expect(adminAccessBySession('app', session(), ended, RULES, NOW)).toEqual({
      outcome: 'anonymous',
      endSession: true,
    });
  });
});

describe('admin rights', () => {
  it('an admin session of an account that is no admin any more ends; an app session stays the app’s', () => {
    const member = account({ admin: false });
    expect(adminAccessBySession('admin', session(), member, RULES, NOW)).toEqual({
      outcome: 'forbidden',
      endSession: true,
    });
    expect(adminAccessBySession('app', session(), member, RULES, NOW)).toEqual({
      outcome: 'forbidden',
      endSession: false,
    });
  });

  it('a verified listed email is an admin without the claim', () => {
    const listed = account({ admin: false, email: 'Ops@Example.test' });
    expect(adminAccessBySession('admin', session(), listed, RULES, NOW).outcome).toBe('admin');
    expect(adminAccessBySession('admin', session(), { ...listed, emailVerified: false }, RULES, NOW).outcome).toBe(
      'forbidden',
    );
  });

  it('the app session lends them for ADMIN_SESSION_TTL_SECONDS after it was opened, no longer', () => {
    const opened = session({ createdAtMs: NOW - RULES.adminSessionTtlMs });
    expect(adminAccessBySession('app', opened, account(), RULES, NOW).outcome).toBe('admin');
    expect(adminAccessBySession('app', opened, account(), RULES, NOW + 1)).toEqual({
      outcome: 'anonymous',
      endSession: false,
    });
    // An admin session's own lifetime is its record's time to live in Redis.
    expect(adminAccessBySession('admin', opened, account(), RULES, NOW + 1).outcome).toBe('admin');
  });
});
