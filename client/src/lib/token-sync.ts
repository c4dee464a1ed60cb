import { TOKEN_SYNC_MAX_AGE_MS } from '@mediagen/shared';

/** A minute's margin under the spec's 5 minutes, for the clocks of this device and the server. */
const SENT_TOKEN_MAX_AGE_MS = TOKEN_SYNC_MAX_AGE_MS - 60_000;

/**
 * Spec §7's optional token sync: when a sync URL on the app's own origin is configured, a sign-in POSTs an
 * ID token under 5 minutes old as a bearer (the server answers with its session cookie) and a sign-out
 * DELETEs it. A failed sync is logged only: the app itself authenticates every call with the ID token.
 */
export function createTokenSync(url: string | undefined, freshToken: (maxAgeMs: number) => Promise<string | null>) {
  return {
    async signedIn(): Promise<void> {
      if (url === undefined) return;
      try {
        const token = await freshToken(SENT_TOKEN_MAX_AGE_MS);
        if (token === null) return;
        const response = await fetch(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          credentials: 'same-origin',
        });
        if (!response.ok) console.warn(`Token sync answered ${response.status}`);
      } catch (error) {
        console.warn('Token sync failed', error);
      }
    },
    async signedOut(): Promise<void> {
      if (url === undefined) return;
      await fetch(url, { method: 'DELETE', credentials: 'same-origin' }).catch((error: unknown) =>
        console.warn('Token sync failed', error),
      );
    },
  };
}
