import type { z } from 'zod';
import type {
  contentCredentialsSchema,
  generationListSchema,
  generationOutputSchema,
  generationResultSchema,
  generationSchema,
  imageDetailsSchema,
  listQuerySchema,
  meSchema,
  queuePositionSchema,
  speechDetailsSchema,
  speechModelInfoSchema,
} from './api-schemas';
import type { AccountUpdate } from './billing';
import type { ApiError } from './errors';

/**
 * The API and socket contract as types and constants. The types are inferred from the schemas in
 * `api-schemas.ts`, imported as types only, so the client's first screens don't carry zod.
 */

export const MAX_PROMPT_LENGTH = 2000;

export type ContentCredentialsSummary = z.infer<typeof contentCredentialsSchema>;
export type GenerationResult = z.infer<typeof generationResultSchema>;
export type GenerationOutput = z.infer<typeof generationOutputSchema>;
export type QueuePosition = z.infer<typeof queuePositionSchema>;
export type Generation = z.infer<typeof generationSchema>;
export type ImageDetails = z.infer<typeof imageDetailsSchema>;
export type GenerationList = z.infer<typeof generationListSchema>;
export type Me = z.infer<typeof meSchema>;
export type ListQuery = z.infer<typeof listQuerySchema>;
export type SpeechDetails = z.infer<typeof speechDetailsSchema>;
export type SpeechModelInfo = z.infer<typeof speechModelInfoSchema>;

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * The longest text `GET /api/generations` searches prompts for (`q`). Kept here, apart from the zod
 * schemas, so the client's search box can read it without bundling zod.
 */
export const MAX_SEARCH_LENGTH = 200;

export const GENERATION_UPDATE_EVENT = 'generation:update';
export const GENERATION_REMOVED_EVENT = 'generation:removed';

export const AUTH_REFRESH_EVENT = 'auth:refresh';

/** The answer to `auth:refresh`: the socket now lives until the new token expires, or it was refused. */
export type AuthRefreshResult = { ok: true; expiresAt: string } | { ok: false; error: ApiError };

/** Socket.IO event maps, typed on both ends. */
export interface ServerToClientEvents {
  'generation:update': (generation: Generation) => void;
  /** Its owner deleted it (here or in another tab): it is gone from the record. */
  'generation:removed': (removal: { id: string }) => void;
  /** The account's plan or balance changed: a billing event, an operator, a renewal (billing.ts). */
  'account:update': (update: AccountUpdate) => void;
}
export interface ClientToServerEvents {
  /**
   * A fresh ID token of the same user. A socket is closed when the token it was opened (or last
   * refreshed) with expires, so the client sends the next one before that.
   */
  'auth:refresh': (token: string, ack: (result: AuthRefreshResult) => void) => void;
}
