import { IMAGE_DEFAULTS, sanitizeImagePrompt, type ImageOptions, type TextPrompt } from './image';
import { IMAGE_MODEL_RULES, nearestAspectRatio, type AspectRatio, type ImageModel } from './image-models';

/** The two prompt fields of Stability's v2beta Stable Image endpoints (Core, SD3.5, Ultra). */
export interface StableImagePrompt {
  prompt: string;
  negative_prompt: string;
}

/**
 * v2beta takes one prompt and one negative prompt, not weighted parts. Its reference describes weights
 * only in `prompt`, as `(word:weight)` with a weight between 0 and 1 ("The sky was a crisp (blue:0.3) and
 * (green:0.8)"), so each positive part's weight is divided by the heaviest one's, keeping their balance:
 * the heaviest parts (which carry the boosters) are written plain, the rest as `(text:weight)`. The
 * negative parts, the standard negative terms last, are listed plain in `negative_prompt`, for which no
 * weighting is documented. Both stay far below v2beta's 10,000 characters.
 */
export function stableImagePrompt(prompt: string, negativePrompt?: string): StableImagePrompt {
  const parts = sanitizeImagePrompt(prompt, negativePrompt);
  const positives = parts.filter((part) => part.weight > 0);
  const heaviest = Math.max(...positives.map((part) => part.weight));
  return {
    prompt: positives.map((part) => weighted(part, heaviest)).join(', '),
    negative_prompt: parts
      .filter((part) => part.weight < 0)
      .map((part) => part.text)
      .join(', '),
  };
}

/** Two decimals, never rounded down to 0, which would drop a part the creator asked for. */
function weighted(part: TextPrompt, heaviest: number): string {
  const weight = Math.max(0.01, Math.round((part.weight / heaviest) * 100) / 100);
  return weight === 1 ? part.text : `(${part.text}:${weight})`;
}

/**
 * The multipart fields of a v2beta generate request (`/v2beta/stable-image/generate/{core|sd3|ultra}`):
 * the prompt as v2beta reads weights, the shape, the negative prompt and style preset where the model
 * takes them, the seed and PNG out. Every value is text, as a form sends it.
 */
export interface StableImageGenerateForm {
  prompt: string;
  /** sd3 only: which SD 3.5 model. */
  model?: string;
  aspect_ratio: AspectRatio;
  negative_prompt?: string;
  style_preset?: string;
  seed: number;
  output_format: 'png';
}

export function buildStableImageForm(
  prompt: string,
  options: ImageOptions,
  seed: number,
  model: ImageModel,
): StableImageGenerateForm {
  const rules = IMAGE_MODEL_RULES[model];
  const read = stableImagePrompt(prompt, options.negativePrompt);
  const aspectRatio =
    options.aspectRatio ??
    nearestAspectRatio(options.width ?? IMAGE_DEFAULTS.width, options.height ?? IMAGE_DEFAULTS.height);
  return {
    prompt: read.prompt,
    ...(rules.sd3Model === undefined ? {} : { model: rules.sd3Model }),
    aspect_ratio: aspectRatio,
    ...(rules.negativePrompt ? { negative_prompt: read.negative_prompt } : {}),
    ...(rules.stylePreset ? { style_preset: options.stylePreset ?? IMAGE_DEFAULTS.stylePreset } : {}),
    seed,
    output_format: 'png',
  };
}
