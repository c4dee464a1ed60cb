import type { z } from 'zod';
import type { apiKeyListSchema, apiKeySchema, createApiKeyBodySchema, createdApiKeySchema } from './api-key-schemas';

/**
 * Personal API keys (issue 39): what a key may do, how many an account keeps, and how long one may live.
 * Apart from the zod schemas, so the client's page reads them without bundling zod.
 */
export const API_KEY_SCOPES = ['generate', 'read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  generate: 'Generate: submit, run again, cancel and delete generations',
  read: 'Read: generations, the library, the account and its tokens',
};

/** Keys an account holds at once (revoked ones do not count): enough to rotate, few enough to audit. */
export const MAX_API_KEYS_PER_ACCOUNT = 20;
export const MAX_API_KEY_NAME_LENGTH = 60;
/** The longest a key may be asked to live; no expiry is allowed too. */
export const MAX_API_KEY_EXPIRY_DAYS = 365;
/** The expiries the web app offers (the API takes any whole number of days up to the maximum). */
export const API_KEY_EXPIRY_CHOICES = [7, 30, 90, 365] as const;

/**
 * A key's text: this prefix, 32 base62 random characters (about 190 bits), then 6 base62 characters of
 * the CRC32 of all before them, so secret scanners can find a leaked key and a mistyped one is refused
 * without a database read (GitHub's token format).
 */
export const API_KEY_PREFIX = 'mgk_';
export const API_KEY_PATTERN = /^mgk_[0-9A-Za-z]{38}$/;

export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;
export type ApiKey = z.infer<typeof apiKeySchema>;
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
