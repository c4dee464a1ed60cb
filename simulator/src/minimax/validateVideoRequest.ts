const MAX_PROMPT_LENGTH = 2000;

interface ModelRules {
  /** Text-to-video needs a prompt; image- and subject-to-video need their image instead. */
  needs: 'prompt' | 'first_frame_image' | 'subject_reference';
  /** What `duration` and `resolution` may be; undefined: the model has one size and ignores them. */
  sizes?: { durations: readonly number[]; resolutions: readonly string[] };
}

const FIRST_GENERATION = {} as const;
const HAILUO = { sizes: { durations: [6, 10], resolutions: ['768P', '1080P'] } } as const;

/**
 * MiniMax's published video models and what each accepts
 * (https://platform.minimax.io/docs/api-reference/video-generation-t2v, -i2v, -s2v). The spec's
 * `video-01` is not among them (its published name is `T2V-01`), so it is refused like any unknown
 * model: a client sending it would fail at every start. The first
 * generation renders a fixed 6 s at 720P, whatever duration or resolution it is sent (so this client's
 * old `1280x720` had no effect, and no error); Hailuo takes 6 or 10 s at 768P, or 6 s at 1080P (02 also
 * 512P from an image).
 */
const MODELS: Readonly<Record<string, ModelRules>> = {
  'T2V-01': { needs: 'prompt', ...FIRST_GENERATION },
  'T2V-01-Director': { needs: 'prompt', ...FIRST_GENERATION },
  'I2V-01': { needs: 'first_frame_image', ...FIRST_GENERATION },
  'I2V-01-Director': { needs: 'first_frame_image', ...FIRST_GENERATION },
  'I2V-01-live': { needs: 'first_frame_image', ...FIRST_GENERATION },
  'S2V-01': { needs: 'subject_reference', ...FIRST_GENERATION },
  'MiniMax-Hailuo-02': { needs: 'prompt', ...HAILUO },
  'MiniMax-Hailuo-2.3': { needs: 'prompt', ...HAILUO },
  'MiniMax-Hailuo-2.3-Fast': { needs: 'first_frame_image', ...HAILUO },
};

const OPTIONAL_FIELD_TYPES: Record<string, 'string' | 'number' | 'boolean' | 'array'> = {
  prompt: 'string',
  prompt_optimizer: 'boolean',
  fast_pretreatment: 'boolean',
  duration: 'number',
  resolution: 'string',
  first_frame_image: 'string',
  subject_reference: 'array',
  callback_url: 'string',
};

function typeOf(value: unknown): string {
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * What is wrong with a POST /v1/video_generation body, as the detail of MiniMax's "invalid params,
 * <detail>" message; undefined when it is fine. Fields the API does not know are ignored, as MiniMax
 * ignores them.
 */
export function videoRequestProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body must be a JSON object';
  const fields = body as Record<string, unknown>;
  const { model } = fields;
  if (typeof model !== 'string' || model === '') return 'model is required';
  const rules = MODELS[model];
  if (rules === undefined) return `model ${model} is not supported; use one of ${Object.keys(MODELS).join(', ')}`;
  for (const [field, type] of Object.entries(OPTIONAL_FIELD_TYPES)) {
    if (fields[field] !== undefined && typeOf(fields[field]) !== type) return `${field} must be a ${type}`;
  }
  const prompt = fields.prompt as string | undefined;
  if (rules.needs === 'prompt' && (prompt === undefined || prompt.trim() === '')) return 'prompt is required';
  if (rules.needs !== 'prompt' && fields[rules.needs] === undefined) return `${rules.needs} is required by ${model}`;
  if (prompt !== undefined && prompt.length > MAX_PROMPT_LENGTH) {
    return `prompt must be at most ${MAX_PROMPT_LENGTH} characters`;
  }
  if (rules.sizes === undefined) return undefined;
  const { durations, resolutions } = rules.sizes;
  const duration = (fields.duration as number | undefined) ?? durations[0]!;
  if (!durations.includes(duration)) return `duration of ${model} must be one of ${durations.join(', ')}`;
  const resolution = (fields.resolution as string | undefined) ?? resolutions[0]!;
  if (!resolutions.includes(resolution)) return `resolution of ${model} must be one of ${resolutions.join(', ')}`;
  if (resolution === '1080P' && duration !== 6) return '1080P renders only 6 s videos';
  return undefined;
}
