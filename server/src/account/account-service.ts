import type { AccountClosure, GenerationJobOwner } from '@mediagen/core';
import { RECENT_SIGN_IN_MAX_AGE_MS } from '@mediagen/shared';
import { confirmSignIn } from '../auth/fresh-sign-in';
import type { AuthUser, IdentityVerifier } from '../auth/identity-verifier';
import { ServiceError } from '../http/errors';
import type { CookieSessions } from '../auth/cookie-sessions';

export interface AccountServiceLogger {
  warn(details: object, message: string): void;
}

export interface AccountServiceOptions {
  closure: Pick<AccountClosure, 'close' | 'isClosed'>;
  identity: Pick<IdentityVerifier, 'account' | 'deleteAccount'>;
  /** Token sync's sessions (POST /api/session). */
  sessions: Pick<CookieSessions, 'open' | 'end' | 'endAll'>;
  /** Clears what is left of the account's generations on the queue side: files, jobs, progress. */
  jobs: Pick<GenerationJobOwner, 'gone'>;
  /** Deletes the user's own keys in Redis: admin sessions, socket presence, rate-limit counters. */
  forgetUserKeys(uid: string): Promise<void>;
  /** Cancels at Stripe the subscriptions closures left (the record keeps them until done; never throws). */
  cancelSubscriptions(): Promise<void>;
  emailHash(email: string | null): string | null;
  log: AccountServiceLogger;
  clock: () => number;
}

/**
 * An account's life on the server. Closing it, as its owner asks (signed in a moment ago) or because its
 * identity is gone: the record goes first (everything of the user but the anonymous trace, in one
 * transaction, announced to every server so their sockets and tokens end at once), then what points at
 * nothing any more (files, jobs, Redis keys), and last, when the owner asked, the identity itself. Should
 * that last step fail, the user can still sign in and ask again, and finds an empty account. Token sync's
 * sessions open only for an account not closed.
 */
export class AccountService {
  /** Closures under way in this process, by uid: a second notice of the same gone account joins the first. */
  private readonly closing = new Map<string, Promise<void>>();

  constructor(private readonly options: AccountServiceOptions) {}

  async close(user: AuthUser): Promise<void> {
    const { options } = this;
    // As Firebase asks for its own sensitive operations: a token lives an hour, and whoever holds one
    // (a borrowed laptop, a stolen token) must not end everything on it without signing in again.
    if (options.clock() - user.authTimeSeconds * 1000 > RECENT_SIGN_IN_MAX_AGE_MS) {
      throw new ServiceError(401, 'REAUTHENTICATION_REQUIRED');
    }
    // And that sign-in still stands now, not only in the API's last read of the account.
    await confirmSignIn(options.identity, user);
    await this.closeRecord(user.uid, options.emailHash(user.email));
    await options.identity.deleteAccount(user.uid);
  }

  /**
   * The identity service no longer has the account (deleted there, not through us): it is closed as if its
   * owner had asked, its trace keyed by the email it was last charged with. Closing a closed one does
   * nothing.
   */
  closeGone(uid: string): Promise<void> {
    let closing = this.closing.get(uid);
    if (closing === undefined) {
      closing = this.closeRecord(uid, null).finally(() => this.closing.delete(uid));
      this.closing.set(uid, closing);
    }
    return closing;
  }

  /**
   * A token sync session, or null for a closed account. The session is written before the record is asked:
   * a closure committed before the question is seen here, and one committed after it ends every session
   * it finds once it has committed, this one included. Either way no session outlives the account.
   */
  async openSession(
    user: Pick<AuthUser, 'uid' | 'authTimeSeconds'>,
  ): Promise<{ id: string; expiresAtMs: number } | null> {
    const { sessions } = this.options;
    const session = await sessions.open(user);
    if (!(await this.options.closure.isClosed(user.uid))) return session;
    // Its own session by its id, and the user's list of sessions, which the closure may have read before
    // this one joined it.
    await Promise.all([sessions.end(session.id), sessions.endAll(user.uid)]);
    return null;
  }

  private async closeRecord(uid: string, emailHash: string | null): Promise<void> {
    const { options } = this;
    const closed = await options.closure.close(uid, emailHash);
    // Money first: nobody is billed for a deleted account.
    await options.cancelSubscriptions();
    const tidy = await Promise.allSettled([
      options.jobs.gone(
        closed.generations.map((generation) => ({
          id: generation.id,
          kind: generation.kind,
          artifactKeys: generation.artifactKeys,
          wasRunning: generation.status === 'queued' || generation.status === 'active',
        })),
      ),
      options.forgetUserKeys(uid),
    ]);
    for (const result of tidy) {
      if (result.status === 'rejected')
        options.log.warn({ err: result.reason }, 'could not tidy up after closing an account');
    }
  }
}
