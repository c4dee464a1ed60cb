import { notReady, ServiceError } from '../http/errors';
import { refusalOf, type AccountStatus, type AuthUser, type IdentityVerifier } from './identity-verifier';

/**
 * The caller's sign-in as the identity service judges it now, not as this server last read the account:
 * opening a session or closing an account never rests on an answer up to AUTH_REVALIDATE_SECONDS old.
 * 401 when the sign-in is over (revoked, disabled, deleted); 503 when the identity service cannot say.
 */
export async function confirmSignIn(
  identity: Pick<IdentityVerifier, 'account'>,
  user: Pick<AuthUser, 'uid' | 'authTimeSeconds'>,
): Promise<AccountStatus> {
  const account = await identity.account(user.uid, { fresh: true }).catch(() => {
    throw notReady();
  });
  if (refusalOf(account, user.authTimeSeconds) !== null) throw new ServiceError(401, 'UNAUTHENTICATED');
  return account;
}
