import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Several servers verify each other's artifact URLs (and workers sign the links in webhook payloads), so a
 * random per-process secret would not do; this fixed value is only used in development mode, and the
 * server's boot log says so.
 */
export const DEV_ARTIFACT_URL_SECRET = 'mediagen-development-artifact-url-secret-do-not-use-in-production';

export type ArtifactLinkCheck = { ok: true; remainingSeconds: number } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * `<img>`, `<video>` and `<audio>` cannot send a bearer header, so a result is served at a short-lived URL
 * whose signature (HMAC-SHA256 over `${key}.${exp}`) any server holding the shared secret can check.
 */
export class ArtifactUrlSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The path and query of a signed link: `/artifacts/<key>?exp=<unix seconds>&sig=<base64url>`. */
  signedPath(key: string, expiresAtSeconds = Math.floor(this.clock() / 1000) + this.ttlSeconds): string {
    const query = new URLSearchParams({ exp: String(expiresAtSeconds), sig: this.signature(key, expiresAtSeconds) });
    return `/artifacts/${encodeURIComponent(key)}?${query.toString()}`;
  }

  check(key: string, exp: string | undefined, sig: string | undefined): ArtifactLinkCheck {
    if (exp === undefined || sig === undefined || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(this.signature(key, Number(exp)), 'base64url');
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    const remainingSeconds = Number(exp) - Math.floor(this.clock() / 1000);
    if (remainingSeconds <= 0) return { ok: false, reason: 'expired' };
    return { ok: true, remainingSeconds };
  }

  private signature(key: string, expiresAtSeconds: number): string {
    return createHmac('sha256', this.secret).update(`${key}.${expiresAtSeconds}`).digest('base64url');
  }
}
