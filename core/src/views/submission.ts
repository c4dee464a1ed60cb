import type { RequestByKind } from '../queue/generation-jobs';
import {
  SPEECH_DEFAULTS,
  isSpeechModel,
  voiceUsed,
  isImageModel,
  tokensOfRequest,
  type GenerationKind,
  type ImageDetails,
  type SpeechDetails,
  type SpeechModel,
} from '@mediagen/shared';

/** What a generation was asked for, fixed at submit: read once per generation, shown with every state. */
export interface Submission {
  prompt: string;
  speech?: SpeechDetails;
  image?: ImageDetails;
}

/** Speech recorded before its model was: the spec's tts-1 read it, as mp3. */
const MODEL_BEFORE_IT_WAS_RECORDED: SpeechModel = 'tts-1';

export function submissionOf(kind: GenerationKind, prompt: string, request: Record<string, unknown>): Submission {
  if (kind === 'image') return { prompt, image: imageDetailsOf(request as Partial<RequestByKind['image']>) };
  if (kind !== 'speech') return { prompt };
  const speech = request as Partial<RequestByKind['speech']>;
  const model = speech.model !== undefined && isSpeechModel(speech.model) ? speech.model : MODEL_BEFORE_IT_WAS_RECORDED;
  // Every recorded speech request passed the schema, voice and language included.
  const voice = speech.voice!;
  return {
    prompt,
    speech: {
      model,
      voice,
      voiceUsed: voiceUsed(model, voice),
      language: speech.language!,
      speed: speech.speed ?? SPEECH_DEFAULTS.speed,
      format: speech.format ?? SPEECH_DEFAULTS.format,
    },
  };
}

/** The settings recorded with an image, as "same seed again" reads them (only what was asked for). */
function imageDetailsOf(request: Partial<RequestByKind['image']>): ImageDetails {
  const { aspectRatio, width, height, resolution, stylePreset, negativePrompt } = request;
  const fields = { aspectRatio, width, height, resolution, stylePreset, negativePrompt };
  return {
    ...(isImageModel(request.model) ? { model: request.model } : {}),
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    samples: tokensOfRequest('image', request),
    seed: request.seed ?? 0,
  };
}
