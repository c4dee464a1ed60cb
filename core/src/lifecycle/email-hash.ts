import { createHmac } from 'node:crypto';

/**
 * A keyed hash of an email, for the trace a closed account leaves: the same address (whatever its case
 * or surrounding spaces) always hashes alike, and without the key no address can be tested against it.
 */
export function emailHash(key: string, email: string): string {
  return createHmac('sha256', key).update(email.trim().toLowerCase()).digest('hex');
}
