import { createHmac, timingSafeEqual } from 'node:crypto';

export const ADMIN_SESSION_COOKIE = 'mediagen_admin';
/** The cookie is only ever sent to the admin pages and their API. */
export const ADMIN_COOKIE_PATH = '/admin';

/**
 * The admin session cookie: `<uid, base64url>.<expiry, unix seconds>.<HMAC-SHA256, base64url>`. Browsers
 * send no bearer header when they navigate, so an admin trades an ID token for this cookie once
 * (POST /admin/session). It holds no claim that could go stale for long: it lasts minutes, and only an
 * identity that was an admin when it was issued ever gets one.
 */
export class AdminSessionSigner {
  constructor(
    private readonly secret: string,
    readonly ttlSeconds: number,
    private readonly clock: () => number = Date.now,
  ) {}

  issue(uid: string): { value: string; expiresAt: number } {
    const expiresAt = Math.floor(this.clock() / 1000) + this.ttlSeconds;
    const subject = Buffer.from(uid).toString('base64url');
    return { value: `${subject}.${expiresAt}.${this.sign(subject, expiresAt)}`, expiresAt };
  }

  /** The uid of a valid, unexpired session; null for anything else. */
  verify(value: string | undefined): string | null {
    if (value === undefined) return null;
    const [subject, expiry, signature, ...rest] = value.split('.');
    if (subject === undefined || expiry === undefined || signature === undefined || rest.length > 0) return null;
    if (!/^\d{1,12}$/.test(expiry)) return null;
    const expected = Buffer.from(this.sign(subject, Number(expiry)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (Number(expiry) * 1000 <= this.clock()) return null;
    return Buffer.from(subject, 'base64url').toString();
  }

  private sign(subject: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`admin-session\n${subject}\n${expiresAt}`).digest('base64url');
  }
}

/** One cookie's value from a Cookie header (no cookie plugin for a single cookie). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
