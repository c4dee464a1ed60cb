import { STYLE_PRESETS } from './style-presets';

export interface TextPrompt {
  text: string;
  weight: number;
}

export interface TextToImageRequest {
  textPrompts: TextPrompt[];
  width: number;
  height: number;
  samples: number;
  /** 0 asks the provider to choose. */
  seed: number;
}

/** Stability's 400 body fields: `name` is invalid_prompts for prompt problems, bad_request otherwise. */
export interface TextToImageProblem {
  name: 'invalid_prompts' | 'bad_request';
  message: string;
}

const MAX_PROMPT_LENGTH = 2000;
const DIMENSION_STEP = 64;
/** Any engine's bounds; each engine narrows them further (engines.ts). */
const DIMENSION_RANGE = { min: 128, max: 2048 };
const MAX_SEED = 4_294_967_295;

const CLIP_GUIDANCE_PRESETS = ['FAST_BLUE', 'FAST_GREEN', 'NONE', 'SIMPLE', 'SLOW', 'SLOWER', 'SLOWEST'];
const SAMPLERS = [
  'DDIM',
  'DDPM',
  'K_DPMPP_2M',
  'K_DPMPP_2S_ANCESTRAL',
  'K_DPM_2',
  'K_DPM_2_ANCESTRAL',
  'K_EULER',
  'K_EULER_ANCESTRAL',
  'K_HEUN',
  'K_LMS',
];

/** Checks a v1 text-to-image body against the limits Stability documents, defaulting what it defaults. */
export function validateTextToImage(body: unknown): TextToImageRequest | TextToImageProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return badRequest('body: must be a JSON object');
  }
  const fields = body as Record<string, unknown>;

  const textPrompts = validateTextPrompts(fields.text_prompts);
  if ('name' in textPrompts) return textPrompts;

  const { width = 512, height = 512, samples = 1, seed = 0, steps = 30, cfg_scale: cfgScale = 7 } = fields;
  const problem =
    checkInteger('width', width, DIMENSION_RANGE.min, DIMENSION_RANGE.max) ??
    checkInteger('height', height, DIMENSION_RANGE.min, DIMENSION_RANGE.max) ??
    checkMultipleOf('width', width as number, DIMENSION_STEP) ??
    checkMultipleOf('height', height as number, DIMENSION_STEP) ??
    checkInteger('samples', samples, 1, 10) ??
    checkInteger('seed', seed, 0, MAX_SEED) ??
    checkInteger('steps', steps, 10, 50) ??
    checkNumber('cfg_scale', cfgScale, 0, 35) ??
    checkOneOf('style_preset', fields.style_preset, STYLE_PRESETS) ??
    checkOneOf('clip_guidance_preset', fields.clip_guidance_preset, CLIP_GUIDANCE_PRESETS) ??
    checkOneOf('sampler', fields.sampler, SAMPLERS);
  if (problem) return badRequest(problem);

  return {
    textPrompts,
    width: width as number,
    height: height as number,
    samples: samples as number,
    seed: seed as number,
  };
}

export function isTextToImageProblem(result: TextToImageRequest | TextToImageProblem): result is TextToImageProblem {
  return 'name' in result;
}

function validateTextPrompts(value: unknown): TextPrompt[] | TextToImageProblem {
  if (!Array.isArray(value) || value.length === 0) {
    return invalidPrompts('text_prompts: must be a non-empty array');
  }
  const prompts: TextPrompt[] = [];
  for (const [index, prompt] of value.entries()) {
    const { text, weight = 1 } = (typeof prompt === 'object' && prompt !== null ? prompt : {}) as Record<
      string,
      unknown
    >;
    if (typeof text !== 'string' || text.trim() === '') {
      return invalidPrompts(`text_prompts[${index}].text: must be a non-empty string`);
    }
    if (text.length > MAX_PROMPT_LENGTH) {
      return invalidPrompts(`text_prompts[${index}].text: must be at most ${MAX_PROMPT_LENGTH} characters`);
    }
    if (typeof weight !== 'number' || !Number.isFinite(weight)) {
      return invalidPrompts(`text_prompts[${index}].weight: must be a number`);
    }
    prompts.push({ text, weight });
  }
  if (!prompts.some((prompt) => prompt.weight > 0)) {
    return invalidPrompts('text_prompts: at least one prompt must have a positive weight');
  }
  return prompts;
}

function checkNumber(field: string, value: unknown, min: number, max: number): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${field}: must be a number`;
  if (value < min || value > max) return `${field}: must be between ${min} and ${max}, got ${value}`;
  return undefined;
}

function checkInteger(field: string, value: unknown, min: number, max: number): string | undefined {
  if (!Number.isInteger(value)) return `${field}: must be an integer`;
  return checkNumber(field, value, min, max);
}

function checkMultipleOf(field: string, value: number, step: number): string | undefined {
  return value % step === 0 ? undefined : `${field}: must be in increments of ${step}, got ${value}`;
}

function checkOneOf(field: string, value: unknown, allowed: readonly string[]): string | undefined {
  if (value === undefined || (typeof value === 'string' && allowed.includes(value))) return undefined;
  return `${field}: must be one of ${allowed.join(', ')}`;
}

function badRequest(message: string): TextToImageProblem {
  return { name: 'bad_request', message };
}

function invalidPrompts(message: string): TextToImageProblem {
  return { name: 'invalid_prompts', message };
}
