import { z } from 'zod';
import { ERROR_MESSAGES, type ApiError, type ErrorCode } from './errors';
import { MAX_IMAGE_SEED, STABILITY_STYLE_PRESETS } from './image';
import type { GenerationKind, GenerationStatus } from './kinds';
import { LANGUAGE_CODES, MAX_SPEECH_INPUT_LENGTH, SPEECH_DEFAULTS, SPEECH_SPEED_RANGE, VOICE_IDS } from './speech';
import type { TokenBalance } from './tokens';
import { MAX_VIDEO_DURATION_SECONDS, VIDEO_DEFAULTS, VIDEO_QUALITIES } from './video';

export const MAX_PROMPT_LENGTH = 2000;

const prompt = z
  .string({ error: ERROR_MESSAGES.PROMPT_REQUIRED })
  .trim()
  .min(1, { error: ERROR_MESSAGES.PROMPT_REQUIRED })
  .max(MAX_PROMPT_LENGTH, { error: `Prompt must be at most ${MAX_PROMPT_LENGTH} characters` });

const dimension = z
  .number()
  .int()
  .min(512)
  .max(2048)
  .refine((value) => value % 64 === 0, { error: 'must be a multiple of 64' });

export const imageRequestSchema = z.strictObject({
  kind: z.literal('image'),
  prompt,
  width: dimension.optional(),
  height: dimension.optional(),
  steps: z.number().int().min(10).max(50).optional(),
  cfgScale: z.number().min(0).max(35).optional(),
  samples: z.number().int().min(1).max(10).optional(),
  stylePreset: z.enum(STABILITY_STYLE_PRESETS).optional(),
  seed: z.number().int().min(0).max(MAX_IMAGE_SEED).optional(),
});

export const videoRequestSchema = z.strictObject({
  kind: z.literal('video'),
  prompt,
  quality: z.enum(VIDEO_QUALITIES).default(VIDEO_DEFAULTS.quality),
  duration: z.number().int().min(1).max(MAX_VIDEO_DURATION_SECONDS).default(VIDEO_DEFAULTS.durationSeconds),
  style: z.string().trim().min(1).max(64).default(VIDEO_DEFAULTS.style),
});

const speechOption = { error: ERROR_MESSAGES.SPEECH_OPTIONS_REQUIRED };

export const speechRequestSchema = z.strictObject({
  kind: z.literal('speech'),
  input: z
    .string({ error: ERROR_MESSAGES.SPEECH_TEXT_REQUIRED })
    .trim()
    .min(1, { error: ERROR_MESSAGES.SPEECH_TEXT_REQUIRED })
    .max(MAX_SPEECH_INPUT_LENGTH, { error: `Text must be at most ${MAX_SPEECH_INPUT_LENGTH} characters` }),
  voice: z.enum(VOICE_IDS, speechOption),
  language: z.enum(LANGUAGE_CODES, speechOption),
  speed: z.number().min(SPEECH_SPEED_RANGE.min).max(SPEECH_SPEED_RANGE.max).default(SPEECH_DEFAULTS.speed),
});

export const generationRequestSchema = z.discriminatedUnion(
  'kind',
  [imageRequestSchema, videoRequestSchema, speechRequestSchema],
  { error: 'kind must be one of image, video, speech' },
);

export type ImageRequest = z.infer<typeof imageRequestSchema>;
export type VideoRequest = z.infer<typeof videoRequestSchema>;
export type SpeechRequest = z.infer<typeof speechRequestSchema>;
export type GenerationRequest = z.infer<typeof generationRequestSchema>;
/** What a client may send: defaults may be left out. */
export type GenerationRequestInput = z.input<typeof generationRequestSchema>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

const CODE_BY_MESSAGE = new Map<string, ErrorCode>(
  (Object.entries(ERROR_MESSAGES) as [ErrorCode, string][]).map(([code, message]) => [message, code]),
);

/** Validates a request body; the spec's rule messages come back with their catalogue codes. */
export function parseGenerationRequest(body: unknown): ParseResult<GenerationRequest> {
  const parsed = generationRequestSchema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const catalogued = issue === undefined ? undefined : CODE_BY_MESSAGE.get(issue.message);
  if (catalogued !== undefined) return { ok: false, error: { code: catalogued, message: issue!.message } };
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, error: { code: 'INVALID_REQUEST', message: `${where}${issue?.message ?? 'invalid body'}` } };
}

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

export const listQuerySchema = z.strictObject({
  kind: z.enum(['image', 'video', 'speech']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().regex(/^\d+$/, { error: 'cursor must be the nextCursor of a previous page' }).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

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

