import { z } from 'zod';
import { MAX_PROMPT_LENGTH } from './contract';
import { ERROR_MESSAGES, type ApiError, type ErrorCode } from './errors';
import { MAX_IMAGE_SAMPLES, MAX_IMAGE_SEED, STABILITY_STYLE_PRESETS } from './image';
import { ASPECT_RATIOS, IMAGE_MODELS, IMAGE_RESOLUTIONS, MAX_NEGATIVE_PROMPT_LENGTH } from './image-models';
import { parsePromptSyntax } from './prompt-syntax';
import { normalizePromptText } from './prompt-text';
import {
  LANGUAGE_CODES,
  MAX_SPEECH_INPUT_LENGTH,
  SPEECH_DEFAULTS,
  SPEECH_FORMATS,
  SPEECH_SPEED_RANGE,
  VOICE_IDS,
} from './speech';
import { speedOutOfRange, type SpeechModel } from './speech-models';
import { choiceOf, singleLineText, writtenText } from './request-text';
import { MAX_VIDEO_DURATION_SECONDS, VIDEO_DEFAULTS, VIDEO_QUALITIES, VIDEO_RESOLUTIONS } from './video';
import { VIDEO_MODEL_CHOICES } from './video-models';

// Prompts are normalised before any rule reads them: a prompt of only invisible characters is empty.
const prompt = writtenText({ error: ERROR_MESSAGES.PROMPT_REQUIRED })
  .transform((text) => normalizePromptText(text, { keepLineBreaks: false }))
  .pipe(
    z
      .string()
      .min(1, { error: ERROR_MESSAGES.PROMPT_REQUIRED })
      .max(MAX_PROMPT_LENGTH, { error: `Prompt must be at most ${MAX_PROMPT_LENGTH} characters` }),
  );

/**
 * An image prompt's weights, AND and [negatives] are read before it is accepted: syntax that cannot be
 * read is refused with what is wrong (prompt-syntax.ts), never sent as text asking for what it meant to
 * keep out.
 */
const imagePrompt = prompt.superRefine((text, context) => {
  const reading = parsePromptSyntax(text);
  if (!reading.ok) context.addIssue({ code: 'custom', message: reading.message });
});

const dimension = z
  .number()
  .int()
  .min(512)
  .max(2048)
  .refine((value) => value % 64 === 0, { error: 'must be a multiple of 64' });

export const imageRequestSchema = z.strictObject({
  kind: z.literal('image'),
  prompt: imagePrompt,
  width: dimension.optional(),
  height: dimension.optional(),
  steps: z.number().int().min(10).max(50).optional(),
  cfgScale: z.number().min(0).max(35).optional(),
  /** Images in the set, each kept and charged one image token; the plan caps it (plan-rules.ts). */
  samples: z
    .number()
    .int()
    .min(1, { error: `must be 1 to ${MAX_IMAGE_SAMPLES}: the number of images` })
    .max(MAX_IMAGE_SAMPLES, { error: `must be 1 to ${MAX_IMAGE_SAMPLES}: the number of images` })
    .optional(),
  stylePreset: choiceOf(STABILITY_STYLE_PRESETS).optional(),
  /** The first image's; a set's next images take the next seeds (seedOfImage). */
  seed: z.number().int().min(0).max(MAX_IMAGE_SEED).optional(),
  /** Unnamed: the plan's default (shared/src/image-models.ts), fixed at submit. */
  model: choiceOf(IMAGE_MODELS, `model must be one of ${IMAGE_MODELS.join(', ')}`).optional(),
  /** Decides the picture's shape when given, else width × height's does. */
  aspectRatio: choiceOf(ASPECT_RATIOS, `aspectRatio must be one of ${ASPECT_RATIOS.join(', ')}`).optional(),
  /** What the picture should not show; the product's own negative terms are sent after it. */
  negativePrompt: writtenText()
    .transform((text) => normalizePromptText(text, { keepLineBreaks: false }))
    .pipe(z.string().min(1).max(MAX_NEGATIVE_PROMPT_LENGTH))
    .optional(),
  resolution: choiceOf(IMAGE_RESOLUTIONS, `resolution must be one of ${IMAGE_RESOLUTIONS.join(', ')}`).optional(),
});

export const videoRequestSchema = z.strictObject({
  kind: z.literal('video'),
  prompt,
  quality: choiceOf(VIDEO_QUALITIES).default(VIDEO_DEFAULTS.quality),
  /** Seconds, read as the shortest clip the model renders at least this long (6 or 10: video-models.ts). */
  duration: z
    .number()
    .int()
    .min(1)
    .max(MAX_VIDEO_DURATION_SECONDS, {
      error: `must be at most ${MAX_VIDEO_DURATION_SECONDS}: videos are 6 or 10 seconds long`,
    })
    .default(VIDEO_DEFAULTS.durationSeconds),
  style: singleLineText().trim().min(1).max(64).default(VIDEO_DEFAULTS.style),
  /** Absent: the plan's default model. The plan and what each model renders decide (resolveVideoRequest). */
  model: choiceOf(VIDEO_MODEL_CHOICES, `model must be one of ${VIDEO_MODEL_CHOICES.join(', ')}`).optional(),
  /** Absent: the one `quality` asks for on the model. */
  resolution: choiceOf(VIDEO_RESOLUTIONS, `resolution must be one of ${VIDEO_RESOLUTIONS.join(', ')}`).optional(),
});

export const speechRequestSchema = z.strictObject({
  kind: z.literal('speech'),
  input: writtenText({ error: ERROR_MESSAGES.SPEECH_TEXT_REQUIRED })
    .transform((text) => normalizePromptText(text, { keepLineBreaks: true }))
    .pipe(
      z
        .string()
        .min(1, { error: ERROR_MESSAGES.SPEECH_TEXT_REQUIRED })
        .max(MAX_SPEECH_INPUT_LENGTH, { error: `Text must be at most ${MAX_SPEECH_INPUT_LENGTH} characters` }),
    ),
  voice: choiceOf(VOICE_IDS, ERROR_MESSAGES.SPEECH_OPTIONS_REQUIRED),
  language: choiceOf(LANGUAGE_CODES, ERROR_MESSAGES.SPEECH_OPTIONS_REQUIRED),
  /** Within every model's range here; the model in use narrows it (parseGenerationRequest). */
  speed: z.number().min(SPEECH_SPEED_RANGE.min).max(SPEECH_SPEED_RANGE.max).default(SPEECH_DEFAULTS.speed),
  format: choiceOf(SPEECH_FORMATS, `format must be one of ${SPEECH_FORMATS.join(', ')}`).default(
    SPEECH_DEFAULTS.format,
  ),
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

/** What the rules of a request depend on beyond its body. */
export interface RequestContext {
  /** The speech model in use: its speed range is the one a speech request must keep to. */
  speechModel: SpeechModel;
}

/**
 * Validates a request body; the spec's rule messages come back with their catalogue codes. A speed the
 * speech model in use does not take is refused, never clamped: the creator would hear another speed.
 */
export function parseGenerationRequest(body: unknown, context: RequestContext): ParseResult<GenerationRequest> {
  const parsed = generationRequestSchema.safeParse(body);
  if (parsed.success) {
    const outOfRange = parsed.data.kind === 'speech' ? speedOutOfRange(context.speechModel, parsed.data.speed) : null;
    if (outOfRange !== null) return { ok: false, error: { code: 'INVALID_REQUEST', message: outOfRange } };
    return { ok: true, value: parsed.data };
  }
  const issue = parsed.error.issues[0];
  const catalogued = issue === undefined ? undefined : CODE_BY_MESSAGE.get(issue.message);
  if (catalogued !== undefined) return { ok: false, error: { code: catalogued, message: issue!.message } };
  // Zod names the unknown keys it found; a message never echoes what the client sent.
  if (issue?.code === 'unrecognized_keys') {
    return {
      ok: false,
      error: { code: 'INVALID_REQUEST', message: 'The request has a field this kind does not take' },
    };
  }
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, error: { code: 'INVALID_REQUEST', message: `${where}${issue?.message ?? 'invalid body'}` } };
}
