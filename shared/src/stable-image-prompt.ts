import { sanitizeImagePrompt, type TextPrompt } from './image';

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
export function stableImagePrompt(prompt: string): StableImagePrompt {
  const parts = sanitizeImagePrompt(prompt);
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
