import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_KEY_PATTERN, API_KEY_PREFIX } from '@mediagen/shared';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
/** 62^6 > 2^32: any CRC32 fits, left-padded with '0'. */
const CHECKSUM_LENGTH = 6;
/** The largest multiple of 62 a byte reaches: bytes from it up are drawn again, so no character is likelier. */
const UNBIASED_BYTE_LIMIT = 248;

function base62(value: number, length: number): string {
  let text = '';
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) text = BASE62[rest % 62] + text;
  return text.padStart(length, '0');
}

function checksumOf(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

/** A new key: the prefix, 32 random base62 characters and the checksum of both. */
export function newApiKeySecret(): string {
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH * 2)) {
      if (byte < UNBIASED_BYTE_LIMIT && random.length < RANDOM_LENGTH) random += BASE62[byte % 62];
    }
  }
  const body = API_KEY_PREFIX + random;
  return body + checksumOf(body);
}

/** Whether a bearer value is meant as an API key (it has the prefix), whatever else is wrong with it. */
export function looksLikeApiKey(bearer: string): boolean {
  return bearer.startsWith(API_KEY_PREFIX);
}

/** Whether a key has the form and its checksum holds: a typo or a made-up key fails here, before any read. */
export function hasValidChecksum(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const split = key.length - CHECKSUM_LENGTH;
  return checksumOf(key.slice(0, split)) === key.slice(split);
}
