import { BLOCKED_WORDS } from './blocked-words';
import { aspectRatioValue, type AspectRatio } from './image-models';
import { appendWithinLimit } from './prompt-budget';
import { promptParts } from './prompt-syntax';

export const STABILITY_STYLE_PRESETS = [
  '3d-model',
  'analog-film',
  'anime',
  'cinematic',
  'comic-book',
  'digital-art',
  'enhance',
  'fantasy-art',
  'isometric',
  'line-art',
  'low-poly',
  'modeling-compound',
  'neon-punk',
  'origami',
  'photographic',
  'pixel-art',
  'tile-texture',
] as const;
export type StylePreset = (typeof STABILITY_STYLE_PRESETS)[number];

/**
 * Spec §9: image defaults. The engine comes from config, the seed is random when not given. On SDXL the
 * CLIP guidance preset is not sent: Stability documents CLIP guidance as unsupported there.
 */
export const IMAGE_DEFAULTS = {
  width: 1024,
  height: 1024,
  steps: 40,
  cfgScale: 8,
  stylePreset: 'photographic',
  clipGuidancePreset: 'FAST_BLUE',
  sampler: 'DDIM',
} as const satisfies Record<string, string | number>;

/**
 * Images one request may make (an image set): Stability's v1 `samples` takes 1 to 10, and v2beta, which
 * makes one image a call, is called as many times. Each plan allows fewer (plan-rules.ts,
 * `maxImagesPerRequest`); every image is kept and costs one image token.
 */
export const MAX_IMAGE_SAMPLES = 10;

/**
 * Why an image of a set was not made, its token given back: the provider `filtered` it (made and withheld,
 * CONTENT_FILTERED), or its call `failed` for good (refused without a retry, or on the job's last attempt)
 * while other images of the set were made.
 */
export const IMAGE_MISSING_REASONS = ['filtered', 'failed'] as const;
export type ImageMissingReason = (typeof IMAGE_MISSING_REASONS)[number];

/**
 * The seed of image `index` of a set whose first image has `seed`: the next seeds in turn (wrapping
 * within Stability's range), as v1 numbers the samples of one call, so each image can be asked for again.
 */
export function seedOfImage(seed: number, index: number): number {
  return (seed + index) % (MAX_IMAGE_SEED + 1);
}

/**
 * The v1 text-to-image engines Stability still serves; older ids (stable-diffusion-512-v2-1, the SDXL
 * betas, 0.9) now answer 404. https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6
 */
export const STABILITY_ENGINES = ['stable-diffusion-xl-1024-v1-0', 'stable-diffusion-v1-6'] as const;
export type StabilityEngine = (typeof STABILITY_ENGINES)[number];
export const DEFAULT_STABILITY_ENGINE: StabilityEngine = 'stable-diffusion-xl-1024-v1-0';

/**
 * SDXL 1.0 renders only these width×height pairs; anything else is a 400 `invalid_sdxl_v1_dimensions`
 * (Stability's v1 reference, DiffuseImageWidth/Height; the same list in Amazon Bedrock's Stability
 * Diffusion 1.0 reference).
 */
export const SDXL_DIMENSIONS: readonly (readonly [number, number])[] = [
  [1024, 1024],
  [1152, 896],
  [1216, 832],
  [1344, 768],
  [1536, 640],
  [640, 1536],
  [768, 1344],
  [832, 1216],
  [896, 1152],
];

/** SD 1.6 takes any multiple of 64 from 320 to 1536 on each side. */
export const SD16_DIMENSION_RANGE = { min: 320, max: 1536 } as const;

export function isSdxlEngine(engine: string): boolean {
  return engine.startsWith('stable-diffusion-xl-1024');
}

/**
 * The allowed SDXL pair closest in shape to what was asked for (the API accepts 512–2048 in steps of 64
 * on each side, SDXL only nine pairs), so a valid request never meets `invalid_sdxl_v1_dimensions`.
 */
export function nearestSdxlDimensions(width: number, height: number): { width: number; height: number } {
  const wanted = Math.log(width / height);
  let best = SDXL_DIMENSIONS[0]!;
  for (const pair of SDXL_DIMENSIONS) {
    if (Math.abs(Math.log(pair[0] / pair[1]) - wanted) < Math.abs(Math.log(best[0] / best[1]) - wanted)) best = pair;
  }
  return { width: best[0], height: best[1] };
}

function engineDimensions(engine: string, width: number, height: number): { width: number; height: number } {
  if (isSdxlEngine(engine)) return nearestSdxlDimensions(width, height);
  const clamp = (side: number) => Math.min(SD16_DIMENSION_RANGE.max, Math.max(SD16_DIMENSION_RANGE.min, side));
  return { width: clamp(width), height: clamp(height) };
}

export const MAX_IMAGE_SEED = 2147483647;

export const QUALITY_BOOSTERS = ['highly detailed', 'sharp focus', 'professional quality', 'high resolution'];
export const PERSON_BOOSTERS = ['detailed face', 'natural skin texture', 'correct anatomy', 'well-proportioned body'];
export const NEGATIVE_PROMPT_TERMS = [
  'blurry',
  'low quality',
  'distorted',
  'deformed',
  'disfigured',
  'bad anatomy',
  'extra limbs',
  'watermark',
  'text',
];

const PERSON_PATTERN = /\b(person|people|woman|man)\b/i;
/** Spec §5: the blocked words are stripped again here, all but 'inappropriate'. */
const STRIPPED_WORDS = BLOCKED_WORDS.filter((word) => word !== 'inappropriate');
const STRIPPED_PATTERN = new RegExp(`\\b(${STRIPPED_WORDS.join('|')})\\b`, 'gi');

export interface TextPrompt {
  text: string;
  weight: number;
}

export function mentionsPerson(prompt: string): boolean {
  return PERSON_PATTERN.test(prompt);
}

/**
 * The text_prompts sent to the image provider, by the spec's rules and the prompt syntax (prompt-syntax.ts): each
 * of the creator's parts with the listed words stripped; the quality boosters (as many as fit within the
 * provider's 2,000 characters) on the heaviest positive part, the first of equals, so they add quality
 * without shifting the balance between parts; the creator's negative prompt and the standard negative terms last, at weight -1. A plain
 * prompt is one part of weight 1 with its boosters, then the negative terms.
 */
export function sanitizeImagePrompt(prompt: string, negativePrompt?: string): TextPrompt[] {
  const parts = promptParts(prompt)
    .map((part) => ({ ...part, text: stripListedWords(part.text) }))
    .filter((part) => part.text !== '');
  const positives = parts.filter((part) => part.weight > 0);
  // A prompt of listed words only is left with the boosters, as before the syntax was read.
  const boosted = positives.length === 0 ? { text: '', weight: 1 } : heaviest(positives);
  const boosters = mentionsPerson(positives.map((part) => part.text).join(' '))
    ? [...QUALITY_BOOSTERS, ...PERSON_BOOSTERS]
    : QUALITY_BOOSTERS;
  const withBoosters = { ...boosted, text: appendWithinLimit(boosted.text, boosters) };
  return [
    ...(positives.length === 0 ? [withBoosters] : parts.map((part) => (part === boosted ? withBoosters : part))),
    { text: negativeText(negativePrompt, V1_PROMPT_LIMIT), weight: -1 },
  ];
}

function stripListedWords(text: string): string {
  return text.replace(STRIPPED_PATTERN, ' ').replace(/\s+/g, ' ').trim();
}

function heaviest(parts: readonly TextPrompt[]): TextPrompt {
  return parts.reduce((best, part) => (part.weight > best.weight ? part : best));
}

/** v1 takes 2,000 characters a text prompt. */
const V1_PROMPT_LIMIT = 2000;

/** The creator's negative prompt ("Leave out") first, then as many of the product's own terms as fit. */
function negativeText(negativePrompt: string | undefined, limit: number): string {
  if (negativePrompt === undefined) return NEGATIVE_PROMPT_TERMS.join(', ');
  return appendWithinLimit(negativePrompt.slice(0, limit), NEGATIVE_PROMPT_TERMS, limit);
}

export interface ImageOptions {
  width?: number | undefined;
  height?: number | undefined;
  steps?: number | undefined;
  cfgScale?: number | undefined;
  stylePreset?: StylePreset | undefined;
  seed?: number | undefined;
  aspectRatio?: AspectRatio | undefined;
  negativePrompt?: string | undefined;
  /** Images in the set (1 when not given). */
  samples?: number | undefined;
}

/** The Stability v1 text-to-image body (spec §7). `seed` must already be chosen so retries reuse it. */
export interface StabilityTextToImageBody {
  text_prompts: TextPrompt[];
  width: number;
  height: number;
  steps: number;
  cfg_scale: number;
  samples: number;
  style_preset: string;
  /** Left out on SDXL, which does not support CLIP guidance. */
  clip_guidance_preset?: string;
  sampler: string;
  seed: number;
}

/** The spec's image settings as the given engine accepts them (README: "What the providers are sent"). */
export function buildStabilityBody(
  prompt: string,
  options: ImageOptions,
  seed: number,
  engine: string = DEFAULT_STABILITY_ENGINE,
): StabilityTextToImageBody {
  // An aspect ratio asked for decides the shape: the engine's size nearest it.
  const [width, height] =
    options.aspectRatio === undefined
      ? [options.width ?? IMAGE_DEFAULTS.width, options.height ?? IMAGE_DEFAULTS.height]
      : [Math.round(1024 * aspectRatioValue(options.aspectRatio)), 1024];
  const size = engineDimensions(engine, width, height);
  return {
    text_prompts: sanitizeImagePrompt(prompt, options.negativePrompt),
    ...size,
    steps: options.steps ?? IMAGE_DEFAULTS.steps,
    cfg_scale: options.cfgScale ?? IMAGE_DEFAULTS.cfgScale,
    samples: options.samples ?? 1,
    style_preset: options.stylePreset ?? IMAGE_DEFAULTS.stylePreset,
    ...(isSdxlEngine(engine) ? {} : { clip_guidance_preset: IMAGE_DEFAULTS.clipGuidancePreset }),
    sampler: IMAGE_DEFAULTS.sampler,
    seed,
  };
}

/** Spec §3: a downloaded file's name starts with the product prefix (the client's resultFileName adds the rest). */
export const PRODUCT_FILE_PREFIX = 'mediagen';
