import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { renderPromptImage } from '../media/promptImage';
import type { TextToImageRequest } from './validateTextToImage';

/** SUCCESS, or CONTENT_FILTERED: the image was made, then withheld behind a blurred stand-in. */
export type FinishReason = 'SUCCESS' | 'CONTENT_FILTERED';

export interface Artifact {
  base64: string;
  seed: number;
  finishReason: FinishReason;
}

const SEED_MODULUS = 2 ** 32;

/**
 * The same prompt, seed and size always give the same bytes, so recent renders are kept: a load test
 * repeating one request then measures the pipeline rather than the simulator's PNG encoder.
 */
const recentRenders = new LRUCache<string, string>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (base64) => base64.length,
});

function renderBase64(promptText: string, seed: number, width: number, height: number): string {
  const key = `${width}x${height}:${seed}:${promptText}`;
  let base64 = recentRenders.get(key);
  if (base64 === undefined) {
    base64 = renderPromptImage(promptText, seed, width, height).toString('base64');
    recentRenders.set(key, base64);
  }
  return base64;
}

/**
 * One image per sample, each with its own seed, as Stability returns them. `finishReason` may say per
 * sample (an image of a set filtered on its own).
 */
export function renderArtifacts(
  request: TextToImageRequest,
  finishReason: FinishReason | ((sample: number) => FinishReason) = 'SUCCESS',
): Artifact[] {
  const reasonOf = typeof finishReason === 'function' ? finishReason : () => finishReason;
  const promptText = request.textPrompts.map((prompt) => `${prompt.weight}:${prompt.text}`).join('\n');
  const firstSeed = request.seed === 0 ? seedFromPrompt(promptText) : request.seed;
  return Array.from({ length: request.samples }, (_, sample) => {
    const seed = (firstSeed + sample) % SEED_MODULUS;
    return {
      base64: renderBase64(promptText, seed, request.width, request.height),
      seed,
      finishReason: reasonOf(sample),
    };
  });
}

/** Stability picks a random seed for 0; deriving it from the prompt keeps the simulator reproducible. */
export function seedFromPrompt(promptText: string): number {
  return createHash('sha256').update(promptText).digest().readUInt32BE(0) || 1;
}
