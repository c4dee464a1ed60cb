import { LRUCache } from 'lru-cache';
import type { AccountClosure } from '@mediagen/core';
import type { AuthUser, IdentityVerifier } from '../auth/identity-verifier';
import { notReady } from '../http/errors';

/** As many as the identity verifier keeps accounts. */
const SETTLED_USERS_CACHE_SIZE = 50_000;

export interface SameEmailAccountsOptions {
  closure: Pick<AccountClosure, 'sharingEmail'>;
  identity: Pick<IdentityVerifier, 'account'>;
  /** Closes an account whose identity is gone (AccountService.closeGone). */
  closeGone(uid: string): Promise<void>;
  emailHash(email: string | null): string | null;
}

/**
 * An account whose identity was deleted at the identity service, not through us, may never send the
 * server another request, and would leave no trace: its owner could sign up again with the same email
 * for fresh free tokens. So before the server first serves a user, earlier accounts charged with the same
 * email are read again from the identity service, and those gone are closed (leaving their trace) before
 * the new one is shown a balance or charged. An earlier account whose identity still exists (a project
 * that allows several accounts per email) is left alone. Each user is settled once per process.
 */
export class SameEmailAccounts {
  private readonly settled = new LRUCache<string, true>({ max: SETTLED_USERS_CACHE_SIZE });

  constructor(private readonly options: SameEmailAccountsOptions) {}

  async settle(user: AuthUser): Promise<void> {
    if (this.settled.has(user.uid)) return;
    const hash = this.options.emailHash(user.email);
    if (hash !== null) {
      for (const earlier of await this.options.closure.sharingEmail(hash, user.uid)) {
        // Fails closed: the new account waits rather than open without the trace it may owe.
        const status = await this.options.identity.account(earlier, { fresh: true }).catch(() => {
          throw notReady();
        });
        if (!status.exists) await this.options.closeGone(earlier);
      }
    }
    this.settled.set(user.uid, true);
  }
}
