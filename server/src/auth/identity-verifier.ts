import { randomUUID } from 'node:crypto';
import { applicationDefault, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth, type DecodedIdToken } from 'firebase-admin/auth';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { LRUCache } from 'lru-cache';
import type { ApiKeyScope } from '@mediagen/shared';
import type { ServerConfig } from '../config';

/** The API key a request was made with: the caller acts as its owner, within its scopes. */
export interface ApiKeyCaller {
  id: string;
  scopes: ApiKeyScope[];
  /** Whether the owner's plan has API access now; a key kept from a plan that had it is refused (403). */
  planAllowsApi: boolean;
}

export interface AuthUser {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** When the user signed in (seconds): a revocation after it ends every token of that sign-in. */
  authTimeSeconds: number;
  /** When this ID token was issued (ms since the epoch): token sync takes only a fresh one. */
  tokenIssuedAtMs: number;
  /** When this ID token expires (ms since the epoch). */
  tokenExpiresAtMs: number;
  /** Set when the caller used an API key instead of an ID token (its sign-in is the key's creation). */
  apiKey?: ApiKeyCaller;
}

/** The account as the identity service holds it now, not as a token remembers it. */
export interface AccountStatus {
  uid: string;
  exists: boolean;
  disabled: boolean;
  email: string | null;
  emailVerified: boolean;
  /** The `admin: true` custom claim (set with `getAuth().setCustomUserClaims(uid, { admin: true })`). */
  admin: boolean;
  /** Tokens of sign-ins before this moment (ms) are revoked; null when never revoked. */
  validSinceMs: number | null;
}

export type RefusalReason = 'invalid' | 'deleted' | 'disabled' | 'revoked';

export class IdentityRefused extends Error {
  override readonly name = 'IdentityRefused';

  constructor(readonly reason: RefusalReason) {
    super(`identity refused: ${reason}`);
  }
}

export interface Freshness {
  /** Read the account from the identity service now instead of trusting a recent answer (sensitive actions). */
  fresh?: boolean;
}

/** The one place that knows how an ID token becomes a user; HTTP, Socket.IO and the admin pages all ask it. */
export interface IdentityVerifier {
  /** Resolves the user; rejects with IdentityRefused for a bad, expired or revoked token or an account gone. */
  verify(idToken: string, options?: Freshness): Promise<AuthUser>;
  /**
   * The uid a well-signed, unexpired token names, from its signature and claims alone: no account is read
   * (outside the Auth emulator, which firebase-admin asks about every token). Rejects like `verify`.
   */
  tokenOwner(idToken: string): Promise<string>;
  /** The account now, at most `revalidateSeconds` old unless `fresh`. */
  account(uid: string, options?: Freshness): Promise<AccountStatus>;
  /** Deletes the account from the identity service; its tokens are refused here at once. */
  deleteAccount(uid: string): Promise<void>;
  /** The account was closed (heard from another server): refuse its tokens here at once. */
  forget(uid: string): void;
  /** Calls `listener` with every account state read from the identity service (not those served from memory). */
  onAccountRead(listener: (account: AccountStatus) => void): void;
  /**
   * Calls `listener` whenever a read of the identity service finds an account gone: deleted there (with
   * the user's own token, say), or deleted by deleteAccount earlier.
   */
  onAccountGone(listener: (uid: string) => void): void;
  close(): Promise<void>;
}

/** Why an account may no longer act on a sign-in made at `authTimeSeconds`; null when it may. */
export function refusalOf(status: AccountStatus, authTimeSeconds: number): RefusalReason | null {
  if (!status.exists) return 'deleted';
  if (status.disabled) return 'disabled';
  // As firebase-admin's checkRevoked: a sign-in before the revocation (second precision) is over.
  if (status.validSinceMs !== null && authTimeSeconds * 1000 < status.validSinceMs) return 'revoked';
  return null;
}

/** Clients send the same ID token for up to an hour; most requests find it here. */
const VERIFIED_TOKEN_CACHE_SIZE = 50_000;
const ACCOUNT_CACHE_SIZE = 50_000;
const ACCOUNT_READ_RETRY_MS = 200;

/**
 * Firebase Auth through firebase-admin. Each call makes its own named app, so several servers can live
 * in one process (the tests do that) and each deletes only its own app on close.
 *
 * Two caches keep the identity service off the hot path without letting a revoked user in for long: a
 * token's signature and claims are trusted until it expires, and an account's state (deleted, disabled,
 * revoked) for `revalidateSeconds`. So a deleted, disabled or revoked user is refused within that time
 * on every request, and at once where `fresh` is asked for. An account in use is read again before its
 * time runs out, so its requests do not wait for that read. When the identity service cannot be reached,
 * the last known account state is kept rather than locking every user out; `fresh` reads fail closed.
 */
export function createFirebaseVerifier(firebase: ServerConfig['firebase']): IdentityVerifier {
  if (firebase.authEmulatorHost !== null) {
    // firebase-admin only reads the emulator host from the environment, at each call.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = firebase.authEmulatorHost;
  }
  // firebase-admin reads no proxy setting itself: behind an egress proxy, its calls to Google (the token
  // signing keys, account reads, and the service account's access tokens) take the agent it is given.
  const httpAgent = firebase.httpsProxy === null ? undefined : new HttpsProxyAgent(firebase.httpsProxy);
  const app: App = initializeApp(
    {
      projectId: firebase.projectId,
      ...(httpAgent === undefined ? {} : { httpAgent }),
      // The emulator needs no credentials; elsewhere GOOGLE_APPLICATION_CREDENTIALS or the platform's default.
      ...(firebase.authEmulatorHost === null ? { credential: applicationDefault(httpAgent) } : {}),
    },
    `mediagen-server-${randomUUID()}`,
  );
  return new FirebaseIdentityVerifier(getAuth(app), firebase.revalidateSeconds * 1000, () => deleteApp(app));
}

class FirebaseIdentityVerifier implements IdentityVerifier {
  private readonly tokens = new LRUCache<string, DecodedIdToken>({ max: VERIFIED_TOKEN_CACHE_SIZE });
  private readonly accounts: LRUCache<string, AccountStatus>;
  private readonly accountListeners: ((account: AccountStatus) => void)[] = [];
  private readonly goneListeners: ((uid: string) => void)[] = [];

  constructor(
    private readonly auth: Auth,
    private readonly revalidateMs: number,
    readonly close: () => Promise<void>,
  ) {
    this.accounts = new LRUCache<string, AccountStatus>({
      max: ACCOUNT_CACHE_SIZE,
      ttl: revalidateMs,
      allowStaleOnFetchRejection: true,
      fetchMethod: (uid) => this.readAccount(uid),
    });
  }

  async verify(idToken: string, options: Freshness = {}): Promise<AuthUser> {
    const decoded = await this.decode(idToken);
    const status = await this.account(decoded.uid, options);
    const refusal = refusalOf(status, decoded.auth_time);
    if (refusal !== null) throw new IdentityRefused(refusal);
    return {
      uid: decoded.uid,
      email: decoded.email ?? null,
      emailVerified: decoded.email_verified === true,
      authTimeSeconds: decoded.auth_time,
      tokenIssuedAtMs: decoded.iat * 1000,
      tokenExpiresAtMs: decoded.exp * 1000,
    };
  }

  async tokenOwner(idToken: string): Promise<string> {
    return (await this.decode(idToken)).uid;
  }

  async account(uid: string, options: Freshness = {}): Promise<AccountStatus> {
    if (options.fresh === true) {
      const status = await this.readAccount(uid);
      this.accounts.set(uid, status);
      return status;
    }
    // An account seen in the last quarter of its time is read again in the background, and served as known
    // meanwhile (never past its time): a user who keeps using the app never waits for the identity service.
    const remainingMs = this.accounts.getRemainingTTL(uid);
    const known = remainingMs > 0;
    if (known && remainingMs <= this.revalidateMs / 4) {
      void this.accounts.fetch(uid, { forceRefresh: true, allowStale: true });
    }
    const status = await this.accounts.fetch(uid, { allowStale: known });
    // Nothing known of the account and the read failed: the service is away, the token not at fault.
    if (status === undefined) throw new Error('the identity service could not be reached');
    return status;
  }

  async deleteAccount(uid: string): Promise<void> {
    this.forget(uid);
    await this.auth.deleteUser(uid).catch((error: unknown) => {
      // Already gone (a retry of a closure that got this far): what was asked for is done.
      if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
    });
  }

  forget(uid: string): void {
    this.accounts.set(uid, closedAccount(uid));
  }

  onAccountRead(listener: (account: AccountStatus) => void): void {
    this.accountListeners.push(listener);
  }

  onAccountGone(listener: (uid: string) => void): void {
    this.goneListeners.push(listener);
  }

  private async decode(idToken: string): Promise<DecodedIdToken> {
    const cached = this.tokens.get(idToken);
    if (cached !== undefined) return cached;
    const decoded = await this.auth.verifyIdToken(idToken).catch((error: unknown) => {
      throw identityServiceFailed(error) ? error : new IdentityRefused('invalid');
    });
    const remainingMs = decoded.exp * 1000 - Date.now();
    if (remainingMs > 0) this.tokens.set(idToken, decoded, { ttl: remainingMs });
    return decoded;
  }

  /** One more try after a moment: a blip of the identity service should not sign a user out. */
  private async readAccount(uid: string): Promise<AccountStatus> {
    const status = await this.readAccountOnce(uid).catch(async () => {
      await new Promise((resolve) => setTimeout(resolve, ACCOUNT_READ_RETRY_MS));
      return this.readAccountOnce(uid);
    });
    for (const listener of this.accountListeners) listener(status);
    return status;
  }

  private async readAccountOnce(uid: string): Promise<AccountStatus> {
    try {
      const record = await this.auth.getUser(uid);
      const validSince = record.tokensValidAfterTime === undefined ? NaN : Date.parse(record.tokensValidAfterTime);
      return {
        uid,
        exists: true,
        disabled: record.disabled,
        email: record.email ?? null,
        emailVerified: record.emailVerified,
        admin: record.customClaims?.admin === true,
        validSinceMs: Number.isNaN(validSince) ? null : validSince,
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
      for (const listener of this.goneListeners) listener(uid);
      return closedAccount(uid);
    }
  }
}

/**
 * firebase-admin reports Google's token signing keys out of reach (an error answer, or no answer at all)
 * as a bad token, `auth/argument-error`: only the message of the key fetcher's error survives.
 */
const SIGNING_KEYS_OUT_OF_REACH =
  /^(Error fetching public keys for Google certs|Error fetching Json Web Keys|Error while making request)/;

/**
 * Whether firebase-admin failed to reach or understand the identity service (its `app/` errors, its
 * internal error, and the signing keys out of reach) rather than judging the token.
 */
function identityServiceFailed(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return false;
  if (code.startsWith('app/') || code === 'auth/internal-error') return true;
  return typeof message === 'string' && SIGNING_KEYS_OUT_OF_REACH.test(message);
}

function closedAccount(uid: string): AccountStatus {
  return { uid, exists: false, disabled: false, email: null, emailVerified: false, admin: false, validSinceMs: null };
}
