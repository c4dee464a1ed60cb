import type { PlanId } from './plans';

/**
 * The image models a request may name, one published Stability API each (README, "What the providers are
 * sent"): `sdxl-1.0` is the v1 text-to-image engine in use (STABILITY_ENGINE, SDXL 1.0 by default), the
 * others Stability's current image service, v2beta Stable Image
 * (https://platform.stability.ai/docs/api-reference#tag/Generate, OpenAPI https://api.stability.ai/v2alpha/openapi).
 */
export const IMAGE_MODELS = [
  'sdxl-1.0',
  'stable-image-core',
  'sd3.5-large',
  'sd3.5-large-turbo',
  'sd3.5-medium',
  'sd3.5-flash',
  'stable-image-ultra',
] as const;
export type ImageModel = (typeof IMAGE_MODELS)[number];

/** The aspect ratios every v2beta generate endpoint takes (`aspect_ratio`, default 1:1). */
export const ASPECT_RATIOS = ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** `4k`: the generated image goes through Stability's upscaler before it is kept (IMAGE_UPSCALER). */
export const IMAGE_RESOLUTIONS = ['standard', '4k'] as const;
export type ImageResolution = (typeof IMAGE_RESOLUTIONS)[number];

/**
 * A creator's negative prompt: as long as a prompt may be. v2beta takes 10,000 characters, but the v1
 * engine 2,000 a text prompt, and the same request must read the same on either.
 */
export const MAX_NEGATIVE_PROMPT_LENGTH = 2000;

/** Which published API serves a model. */
export type ImageApi = 'v1-text-to-image' | 'v2beta-generate';

export interface ImageModelRules {
  title: string;
  api: ImageApi;
  /** v2beta: the path's last segment (`/v2beta/stable-image/generate/{endpoint}`). */
  endpoint?: 'core' | 'sd3' | 'ultra';
  /** v2beta sd3: the `model` form field. */
  sd3Model?: string;
  /** Takes `negative_prompt` (the v1 engine: a text prompt of weight -1). */
  negativePrompt: boolean;
  /** Takes `style_preset`. */
  stylePreset: boolean;
  /** Takes `steps` and `cfg_scale` as the v1 engine does; v2beta chooses them itself. */
  stepsAndCfg: boolean;
  /**
   * Stability's list price of one successful call, in credits (1 credit = US$0.01); the v1 engine is priced
   * by steps instead (core's price table). v2beta fails are not charged.
   */
  credits: number;
}

/**
 * Each model's real options and price. Prices: Stability's pricing (https://platform.stability.ai/pricing,
 * the August 2025 update https://stability.ai/api-pricing-update-25): Ultra 8, SD 3.5 Large 6.5, Large
 * Turbo 4, Medium 3.5, Flash 2.5, Core 3 credits. Core takes `style_preset`; the SD3 endpoint documents
 * negative prompts as not working with the turbo model, so it is never sent one.
 */
export const IMAGE_MODEL_RULES: Record<ImageModel, ImageModelRules> = {
  'sdxl-1.0': {
    title: 'Stable Diffusion XL 1.0',
    api: 'v1-text-to-image',
    negativePrompt: true,
    stylePreset: true,
    stepsAndCfg: true,
    credits: 0.9,
  },
  'stable-image-core': {
    title: 'Stable Image Core',
    api: 'v2beta-generate',
    endpoint: 'core',
    negativePrompt: true,
    stylePreset: true,
    stepsAndCfg: false,
    credits: 3,
  },
  'sd3.5-large': {
    title: 'Stable Diffusion 3.5 Large',
    api: 'v2beta-generate',
    endpoint: 'sd3',
    sd3Model: 'sd3.5-large',
    negativePrompt: true,
    stylePreset: false,
    stepsAndCfg: false,
    credits: 6.5,
  },
  'sd3.5-large-turbo': {
    title: 'Stable Diffusion 3.5 Large Turbo',
    api: 'v2beta-generate',
    endpoint: 'sd3',
    sd3Model: 'sd3.5-large-turbo',
    negativePrompt: false,
    stylePreset: false,
    stepsAndCfg: false,
    credits: 4,
  },
  'sd3.5-medium': {
    title: 'Stable Diffusion 3.5 Medium',
    api: 'v2beta-generate',
    endpoint: 'sd3',
    sd3Model: 'sd3.5-medium',
    negativePrompt: true,
    stylePreset: false,
    stepsAndCfg: false,
    credits: 3.5,
  },
  'sd3.5-flash': {
    title: 'Stable Diffusion 3.5 Flash',
    api: 'v2beta-generate',
    endpoint: 'sd3',
    sd3Model: 'sd3.5-flash',
    negativePrompt: true,
    stylePreset: false,
    stepsAndCfg: false,
    credits: 2.5,
  },
  'stable-image-ultra': {
    title: 'Stable Image Ultra',
    api: 'v2beta-generate',
    endpoint: 'ultra',
    negativePrompt: true,
    stylePreset: false,
    stepsAndCfg: false,
    credits: 8,
  },
};

/**
 * The upscaler behind `resolution: "4k"`: Stability's Fast Upscaler (`POST /v2beta/stable-image/upscale/fast`,
 * synchronous), which returns 4 times each side of its input (1024² in, 4096² out). Its input must have
 * sides of 32 to 1,536 pixels and at most 1,048,576 pixels in all. The Conservative Upscaler, which the
 * plan's wording had in mind, is documented as "The resolution of the generated image will be 4
 * megapixels" (2048² for a square): below 4K UHD's 8.3 megapixels, at 40 credits a call.
 */
export const IMAGE_UPSCALER = {
  endpoint: 'fast',
  factor: 4,
  maxInputSide: 1536,
  minInputSide: 32,
  maxInputPixels: 1_048_576,
  credits: 2,
} as const;

/** What a plan may ask of the image models: the ones it may name, the one it gets unnamed, 4K or not. */
export interface PlanImageModels {
  models: readonly ImageModel[];
  defaultModel: ImageModel;
  resolutions: readonly ImageResolution[];
}

/** Issue 36, "Models per plan": Free the v1 SDXL as before; Pro the current service; Enterprise Ultra and 4K. */
export const PLAN_IMAGE_MODELS: Record<PlanId, PlanImageModels> = {
  free: { models: ['sdxl-1.0'], defaultModel: 'sdxl-1.0', resolutions: ['standard'] },
  pro: {
    models: ['sdxl-1.0', 'stable-image-core', 'sd3.5-large', 'sd3.5-large-turbo', 'sd3.5-medium', 'sd3.5-flash'],
    defaultModel: 'stable-image-core',
    resolutions: ['standard'],
  },
  enterprise: { models: IMAGE_MODELS, defaultModel: 'stable-image-ultra', resolutions: ['standard', '4k'] },
};

/** The image settings whose meaning depends on the model. */
export interface ImageModelOptions {
  negativePrompt?: string | undefined;
  stylePreset?: string | undefined;
  steps?: number | undefined;
  cfgScale?: number | undefined;
}

/** Why a model does not take what a request asks of it (a 400), or null when it does. */
export function imageOptionProblem(model: ImageModel, options: ImageModelOptions): string | null {
  const rules = IMAGE_MODEL_RULES[model];
  if (options.negativePrompt !== undefined && !rules.negativePrompt) {
    return `negativePrompt: ${rules.title} does not take a negative prompt`;
  }
  if (options.stylePreset !== undefined && !rules.stylePreset) {
    return `stylePreset: ${rules.title} does not take a style preset`;
  }
  if ((options.steps !== undefined || options.cfgScale !== undefined) && !rules.stepsAndCfg) {
    return `${options.steps !== undefined ? 'steps' : 'cfgScale'}: ${rules.title} chooses its own steps and guidance`;
  }
  return null;
}

/** The listed aspect ratio closest in shape to width × height. */
export function nearestAspectRatio(width: number, height: number): AspectRatio {
  const wanted = Math.log(width / height);
  const distance = (ratio: AspectRatio) => {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    return Math.abs(Math.log(w / h) - wanted);
  };
  return ASPECT_RATIOS.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}

/** width / height of an aspect ratio. */
export function aspectRatioValue(ratio: AspectRatio): number {
  const [w, h] = ratio.split(':').map(Number) as [number, number];
  return w / h;
}

export function isImageModel(value: unknown): value is ImageModel {
  return (IMAGE_MODELS as readonly unknown[]).includes(value);
}
