import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { userKeys } from '@mediagen/core';

/** A key is remembered for a day: long enough for any client retry, short enough to keep Redis small. */
const RECORD_TTL_SECONDS = 24 * 60 * 60;

// KEYS: the record. ARGV: the value this request wrote. Deletes only our own record.
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

export type ClaimOutcome = { claimed: true } | { claimed: false; generationId: string; bodyHash: string };

/** Hash of a request with its keys sorted, so the same body in another key order is the same request. */
export function canonicalBodyHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `Idempotency-Key` records: `"<generation id>|<sha256 of the canonical body>"` per user and key. */
export class IdempotencyRecords {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async claim(uid: string, key: string, generationId: string, bodyHash: string): Promise<ClaimOutcome> {
    const recordKey = userKeys(this.prefix, uid).idempotency(key);
    const set = await this.redis.set(recordKey, `${generationId}|${bodyHash}`, 'EX', RECORD_TTL_SECONDS, 'NX');
    if (set === 'OK') return { claimed: true };
    const existing = (await this.redis.get(recordKey)) ?? '';
    const [storedId = '', storedHash = ''] = existing.split('|');
    // The record expired between SET and GET: nobody holds the key any more, so claim it again.
    if (existing === '') return this.claim(uid, key, generationId, bodyHash);
    return { claimed: false, generationId: storedId, bodyHash: storedHash };
  }

  /** Forgets a record this request wrote, so a retry after a refused or failed submission starts afresh. */
  async release(uid: string, key: string, generationId: string, bodyHash: string): Promise<void> {
    await this.redis.eval(
      RELEASE_SCRIPT,
      1,
      userKeys(this.prefix, uid).idempotency(key),
      `${generationId}|${bodyHash}`,
    );
  }
}
