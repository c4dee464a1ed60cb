import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AuthUser } from './identity-verifier';

export const ADMIN_SESSION_COOKIE = 'mediagen_admin';
/** The cookie is only ever sent to the admin pages and their API. */
export const ADMIN_COOKIE_PATH = '/admin';
/** The app's session, opened by the client's token sync (spec §7) on the app's own origin. */
export const APP_SESSION_COOKIE = 'mediagen_session';

export interface CookieSession {
  uid: string;
  /**
   * When the user made the sign-in whose token opened it (seconds, the token's auth_time): a revocation
   * after that sign-in ends the session, however recently the session itself was opened.
   */
  authTimeSeconds: number;
  /** When it was opened (ms). */
  createdAtMs: number;
}

function isCookieSession(value: unknown): value is CookieSession {
  const session = value as Partial<CookieSession> | null;
  return (
    typeof session?.uid === 'string' &&
    typeof session.authTimeSeconds === 'number' &&
    typeof session.createdAtMs === 'number'
  );
}

/**
 * Sessions held on the server, in Redis, behind a cookie: the cookie carries only a random id, so signing
 * out ends the session everywhere at once and nothing in the cookie can be forged or outlive its record.
 * Records are stored under a hash of the id, so reading Redis does not hand out sessions. `kind` keeps the
 * admin UI's sessions and the app's apart.
 */
export class CookieSessions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly kind: 'admin' | 'app',
    readonly ttlSeconds: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async open(user: Pick<AuthUser, 'uid' | 'authTimeSeconds'>): Promise<{ id: string; expiresAtMs: number }> {
    const { uid } = user;
    const id = randomBytes(32).toString('base64url');
    const session: CookieSession = { uid, authTimeSeconds: user.authTimeSeconds, createdAtMs: this.clock() };
    const key = this.key(id);
    // Each user's sessions are listed too, so closing the account ends them all.
    await this.redis
      .multi()
      .set(key, JSON.stringify(session), 'EX', this.ttlSeconds)
      .sadd(this.userKey(uid), key)
      .expire(this.userKey(uid), this.ttlSeconds)
      .exec();
    return { id, expiresAtMs: session.createdAtMs + this.ttlSeconds * 1000 };
  }

  async find(id: string | undefined): Promise<CookieSession | null> {
    if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    return parseSession(await this.redis.get(this.key(id)));
  }

  async end(id: string | undefined): Promise<void> {
    if (id !== undefined && id !== '') await this.redis.del(this.key(id));
  }

  /** Ends every session of a user (their account is being closed). */
  async endAll(uid: string): Promise<void> {
    const keys = await this.redis.smembers(this.userKey(uid));
    await this.redis.del(...keys, this.userKey(uid));
  }

  /** Ends each of the user's sessions that `ended` picks (their account changed); a lapsed one is only unlisted. */
  async endWhere(uid: string, ended: (session: CookieSession) => boolean): Promise<void> {
    const keys = await this.redis.smembers(this.userKey(uid));
    if (keys.length === 0) return;
    const stored = await this.redis.mget(...keys);
    const over = keys.filter((_key, index) => {
      const session = parseSession(stored[index] ?? null);
      return session === null || ended(session);
    });
    if (over.length > 0)
      await this.redis
        .multi()
        .del(...over)
        .srem(this.userKey(uid), ...over)
        .exec();
  }

  private userKey(uid: string): string {
    return `${this.prefix}:{${uid}}:${this.kind}-sessions`;
  }

  private key(id: string): string {
    return `${this.prefix}:${this.kind}-session:${createHash('sha256').update(id).digest('hex')}`;
  }
}

/** A stored session; one kept by an older release, without its sign-in time, counts as ended. */
function parseSession(stored: string | null): CookieSession | null {
  if (stored === null) return null;
  const session: unknown = JSON.parse(stored);
  return isCookieSession(session) ? session : null;
}

/** One cookie's value from a Cookie header (no cookie plugin for two cookies read and set in one place each). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** A Set-Cookie value for a session id (or '' with maxAge 0 to clear it): never readable by scripts. */
export function sessionCookie(
  name: string,
  value: string,
  options: { path: string; maxAgeSeconds: number; secure: boolean },
): string {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    // Strict: no other site can make a request that carries it.
    'SameSite=Strict',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
