import { sessionEnded } from '../admin/admin-access';
import type { CookieSessions } from './cookie-sessions';
import type { AccountStatus } from './identity-verifier';

interface Sessions {
  admin: CookieSessions;
  app: CookieSessions;
}

/**
 * Ends the cookie sessions an account no longer allows, each time the identity verifier reads that
 * account from the identity service (at least every AUTH_REVALIDATE_SECONDS while its owner uses the API
 * or holds a socket). A session is then over even if its cookie is never shown again: copied elsewhere,
 * it opens nothing.
 */
export function endSessionsOnAccountRead(sessions: Sessions, adminEmails: readonly string[]) {
  return async (account: AccountStatus): Promise<void> => {
    await Promise.all(
      (['admin', 'app'] as const).map((kind) =>
        sessions[kind].endWhere(account.uid, (session) => sessionEnded(kind, session, account, adminEmails)),
      ),
    );
  };
}
