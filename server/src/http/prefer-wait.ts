/** The longest `Prefer: wait` a submission is held for; a longer wish is cut to it (and said so). */
export const MAX_PREFER_WAIT_SECONDS = 60;

/**
 * The seconds a `Prefer` header asks to wait (RFC 7240 §4.3, `wait=<delta-seconds>`), at most
 * MAX_PREFER_WAIT_SECONDS; null when it asks for none. Preferences it does not know, and a `wait` that is
 * not a number, are ignored, as §2 asks of a server.
 */
export function preferredWaitSeconds(header: string | string[] | undefined): number | null {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  for (const preference of values.flatMap((value) => value.split(','))) {
    const [token = '', value] = (preference.split(';')[0] ?? '').split('=', 2).map((part) => part.trim());
    if (token.toLowerCase() !== 'wait' || value === undefined) continue;
    const seconds = /^"?(\d{1,9})"?$/.exec(value)?.[1];
    if (seconds === undefined) continue;
    const wait = Math.min(Number(seconds), MAX_PREFER_WAIT_SECONDS);
    return wait > 0 ? wait : null;
  }
  return null;
}
