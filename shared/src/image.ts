import { BLOCKED_WORDS } from './moderation';

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

/** Spec §9: image defaults. The engine comes from config, the seed is random when not given. */
export const IMAGE_DEFAULTS = {
  width: 1024,
  height: 1024,
  steps: 40,
  cfgScale: 8,
  samples: 1,
  stylePreset: 'photographic',
  clipGuidancePreset: 'FAST_BLUE',
  sampler: 'DDIM',
} as const satisfies Record<string, string | number>;

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

/** The text_prompts sent to the image provider: the cleaned prompt with boosters, and a negative prompt of weight -1. */
export function sanitizeImagePrompt(prompt: string): TextPrompt[] {
  const cleaned = prompt.replace(STRIPPED_PATTERN, ' ').replace(/\s+/g, ' ').trim();
  const boosters = mentionsPerson(cleaned) ? [...QUALITY_BOOSTERS, ...PERSON_BOOSTERS] : QUALITY_BOOSTERS;
  return [
    { text: [cleaned, ...boosters].join(', '), weight: 1 },
    { text: NEGATIVE_PROMPT_TERMS.join(', '), weight: -1 },
  ];
}

export interface ImageOptions {
  width?: number | undefined;
  height?: number | undefined;
  steps?: number | undefined;
  cfgScale?: number | undefined;
  samples?: number | undefined;
  stylePreset?: StylePreset | undefined;
  seed?: number | undefined;
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
  clip_guidance_preset: string;
  sampler: string;
  seed: number;
}

export function buildStabilityBody(prompt: string, options: ImageOptions, seed: number): StabilityTextToImageBody {
  return {
    text_prompts: sanitizeImagePrompt(prompt),
    width: options.width ?? IMAGE_DEFAULTS.width,
    height: options.height ?? IMAGE_DEFAULTS.height,
    steps: options.steps ?? IMAGE_DEFAULTS.steps,
    cfg_scale: options.cfgScale ?? IMAGE_DEFAULTS.cfgScale,
    samples: options.samples ?? IMAGE_DEFAULTS.samples,
    style_preset: options.stylePreset ?? IMAGE_DEFAULTS.stylePreset,
    clip_guidance_preset: IMAGE_DEFAULTS.clipGuidancePreset,
    sampler: IMAGE_DEFAULTS.sampler,
    seed,
  };
}

/** Spec §3: the downloaded file is named product prefix + timestamp + .png. */
export const PRODUCT_FILE_PREFIX = 'mediagen';
export function imageDownloadName(timestampMs: number): string {
  return `${PRODUCT_FILE_PREFIX}-${timestampMs}.png`;
}
