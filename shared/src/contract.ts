import type { ApiError } from './errors';
import type { GenerationKind, GenerationStatus } from './kinds';
import type { TokenBalance } from './tokens';

/**
 * The API and socket contract as plain types and constants, free of zod so the client's first
 * screens don't carry the request schemas.
 */

export const MAX_PROMPT_LENGTH = 2000;

export interface GenerationResult {
  /** A short-lived signed URL an <img>, <video> or <audio> can load without a bearer header. */
  url: string;
  mimeType: string;
}

export interface QueuePosition {
  /** 1-based place in the queue of its kind. */
  position: number;
  /** Estimated milliseconds until it starts, from recent run times; null when unknown. */
  etaMs: number | null;
}

/** The whole state of one generation: every `generation:update` event and every GET carries it. */
export interface Generation {
  id: string;
  kind: GenerationKind;
  status: GenerationStatus;
  /** 0..99 until completed, then 100; never goes backwards. */
  progress: number;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
  /** The image or video prompt, or the speech text. */
  prompt: string;
  result?: GenerationResult;
  error?: ApiError;
  queue?: QueuePosition;
}

export interface GenerationList {
  items: Generation[];
  nextCursor: string | null;
}

export interface Me {
  uid: string;
  email: string | null;
  tokens: TokenBalance;
  allowance: TokenBalance;
  /** ISO 8601: when the balances reset to the allowance. */
  resetsAt: string;
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

export const GENERATION_UPDATE_EVENT = 'generation:update';

/** Socket.IO event maps, typed on both ends. */
export interface ServerToClientEvents {
  'generation:update': (generation: Generation) => void;
}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- clients send nothing over the socket
export interface ClientToServerEvents {}
