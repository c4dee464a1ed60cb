import { z } from 'zod';
import { API_KEY_SCOPES, MAX_API_KEY_EXPIRY_DAYS, MAX_API_KEY_NAME_LENGTH } from './api-keys';
import { singleLineText } from './request-text';

/** POST /api/keys. Scopes are named once each; a key with none could do nothing. */
export const createApiKeyBodySchema = z.strictObject({
  name: singleLineText({ error: 'name is required' })
    .trim()
    .min(1, { error: 'name must not be empty' })
    .max(MAX_API_KEY_NAME_LENGTH, { error: `name must be at most ${MAX_API_KEY_NAME_LENGTH} characters` }),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `scopes must be among ${API_KEY_SCOPES.join(', ')}` }), {
      error: 'scopes must be a list',
    })
    .min(1, { error: 'scopes must name at least one scope' })
    .refine((scopes) => new Set(scopes).size === scopes.length, { error: 'scopes must not repeat a scope' }),
  expiresInDays: z
    .number({ error: 'expiresInDays must be a number' })
    .int({ error: 'expiresInDays must be a whole number' })
    .min(1, { error: 'expiresInDays must be at least 1' })
    .max(MAX_API_KEY_EXPIRY_DAYS, { error: `expiresInDays must be at most ${MAX_API_KEY_EXPIRY_DAYS}` })
    .optional(),
});

/** A key as its owner lists it: never its secret, which only the creation's answer carries. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The secret's last four characters, to tell keys apart. */
  lastFour: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  createdAt: z.string(),
  /** Updated at most once a minute. */
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});

export const apiKeyListSchema = z.object({
  /** Whether the plan lets keys be made and used now (kept keys of a plan without it wait for an upgrade). */
  apiAccess: z.boolean(),
  maxKeys: z.number().int(),
  keys: z.array(apiKeySchema),
});

export const createdApiKeySchema = apiKeySchema.extend({
  /** The whole key: shown this once, kept nowhere (the server stores its keyed hash). */
  secret: z.string(),
});

export const apiKeyIdParamsSchema = z.strictObject({ id: singleLineText().min(1).max(64) });
