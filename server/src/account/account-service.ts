import type { AccountClosure, ArtifactStore } from '@mediagen/core';
import { RECENT_SIGN_IN_MAX_AGE_MS, type GenerationKind } from '@mediagen/shared';
import { confirmSignIn } from '../auth/fresh-sign-in';
import type { AuthUser, IdentityVerifier } from '../auth/identity-verifier';
import { ServiceError } from '../http/errors';

export interface AccountServiceLogger {
  warn(details: object, message: string): void;
}

export interface AccountServiceOptions {
  closure: AccountClosure;
  identity: Pick<IdentityVerifier, 'account' | 'deleteAccount'>;
  artifacts: Pick<ArtifactStore, 'remove'>;
  /** Takes a deleted generation's job out of its queue (false when a worker holds it). */
  forgetJob(kind: GenerationKind, id: string): Promise<boolean>;
  signalCancel(id: string): Promise<void>;
  forgetProgress(ids: readonly string[]): Promise<void>;
  /** Deletes the user's own keys in Redis: admin sessions, socket presence, rate-limit counters. */
  forgetUserKeys(uid: string): Promise<void>;
  emailHash(email: string | null): string | null;
  log: AccountServiceLogger;
  clock: () => number;
}

/**
 * Closing an account, as its owner asks, signed in a moment ago: the record goes first (everything of the user but the anonymous
 * trace, in one transaction, announced to every server so their sockets and tokens end at once), then
 * what points at nothing any more (files, jobs, Redis keys), and last the identity itself. Should that
 * last step fail, the user can still sign in and ask again, and finds an empty account.
 */
export class AccountService {
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
    const closed = await options.closure.close(user.uid, options.emailHash(user.email));
    const running = closed.generations.filter(
      (generation) => generation.status === 'queued' || generation.status === 'active',
    );
    const tidy = await Promise.allSettled([
      ...closed.generations.map(async (generation) => {
        for (const key of generation.artifactKeys) await options.artifacts.remove(key);
        await options.forgetJob(generation.kind, generation.id);
      }),
      ...running.map((generation) => options.signalCancel(generation.id)),
      options.forgetProgress(closed.generations.map((generation) => generation.id)),
      options.forgetUserKeys(user.uid),
    ]);
    for (const result of tidy) {
      if (result.status === 'rejected')
        options.log.warn({ err: result.reason }, 'could not tidy up after closing an account');
    }
    await options.identity.deleteAccount(user.uid);
  }
}
