import { createHash } from 'node:crypto';
import { renderPromptImage } from '../media/promptImage';
import type { TextToImageRequest } from './validateTextToImage';

export interface Artifact {
  base64: string;
  seed: number;
  finishReason: 'SUCCESS';
}

const SEED_MODULUS = 2 ** 32;

/** One image per sample, each with its own seed, as Stability returns them. */
export function renderArtifacts(request: TextToImageRequest): Artifact[] {
  const promptText = request.textPrompts.map((prompt) => `${prompt.weight}:${prompt.text}`).join('\n');
  const firstSeed = request.seed === 0 ? seedFromPrompt(promptText) : request.seed;
  return Array.from({ length: request.samples }, (_, sample) => {
    const seed = (firstSeed + sample) % SEED_MODULUS;
    const png = renderPromptImage(promptText, seed, request.width, request.height);
    return { base64: png.toString('base64'), seed, finishReason: 'SUCCESS' };
  });
}

/** Stability picks a random seed for 0; deriving it from the prompt keeps the simulator reproducible. */
function seedFromPrompt(promptText: string): number {
  return createHash('sha256').update(promptText).digest().readUInt32BE(0) || 1;
}
