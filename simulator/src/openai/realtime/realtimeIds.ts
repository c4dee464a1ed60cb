import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The API's ids carry 21 such characters after the prefix (`event_C9G8pqbTEddBSIxbBN6Os`).
const ID_LENGTH = 21;

export type RealtimeIdPrefix = 'event' | 'sess' | 'conv' | 'resp' | 'item';

/** An id shaped like the API's: `sess_…` for a session, `resp_…` for a response, and so on. */
export function realtimeId(prefix: RealtimeIdPrefix): string {
  // A response sends thousands of events, so one random read per id; the modulo bias does not matter here.
  const suffix = Array.from(randomBytes(ID_LENGTH), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return `${prefix}_${suffix}`;
}
