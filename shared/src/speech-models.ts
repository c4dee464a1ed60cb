import type { VoiceId } from './speech';

/**
 * OpenAI's speech models, by the API that serves them:
 * - `realtime`: the Realtime API (WebSocket), a voice agent told to read the text word for word;
 * - `speech-endpoint`: `POST /v1/audio/speech`, whose every model OpenAI shuts down on 2027-01-06
 *   (https://developers.openai.com/api/docs/guides/text-to-speech; deprecations page).
 */
export type SpeechApi = 'realtime' | 'speech-endpoint';

export interface SpeechModelRules {
  api: SpeechApi;
  /** Speeds the model takes: the Realtime range (0.25–1.5) is narrower than the speech endpoint's (0.25–4). */
  speed: { min: number; max: number };
  /** The provider's voice each of the spec's six voices is read with. */
  voices: Readonly<Record<VoiceId, string>>;
  /** The UTC day OpenAI shuts the model down (YYYY-MM-DD); null while none is announced. */
  shutdownOn: string | null;
}

const SPEECH_ENDPOINT_VOICES = {
  nova: 'nova',
  shimmer: 'shimmer',
  alloy: 'alloy',
  echo: 'echo',
  onyx: 'onyx',
  fable: 'fable',
} as const satisfies Record<VoiceId, string>;

/**
 * The Realtime models have alloy, ash, ballad, coral, echo, sage, shimmer, verse, marin and cedar: no
 * nova, onyx or fable. Each of those is read by the nearest voice of the same group: nova (female,
 * energetic, bright) by coral, onyx (male, deep, authoritative) by cedar, fable (male, narrative, with
 * its British accent) by ballad.
 */
const REALTIME_VOICES = {
  nova: 'coral',
  shimmer: 'shimmer',
  alloy: 'alloy',
  echo: 'echo',
  onyx: 'cedar',
  fable: 'ballad',
} as const satisfies Record<VoiceId, string>;

const REALTIME_SPEED = { min: 0.25, max: 1.5 } as const;
const SPEECH_ENDPOINT_SPEED = { min: 0.25, max: 4 } as const;
const SPEECH_ENDPOINT_SHUTDOWN = '2027-01-06';

export const SPEECH_MODELS = {
  'gpt-realtime-2.1-mini': { api: 'realtime', speed: REALTIME_SPEED, voices: REALTIME_VOICES, shutdownOn: null },
  'gpt-realtime-2.1': { api: 'realtime', speed: REALTIME_SPEED, voices: REALTIME_VOICES, shutdownOn: null },
  'tts-1': {
    api: 'speech-endpoint',
    speed: SPEECH_ENDPOINT_SPEED,
    voices: SPEECH_ENDPOINT_VOICES,
    shutdownOn: SPEECH_ENDPOINT_SHUTDOWN,
  },
  'tts-1-hd': {
    api: 'speech-endpoint',
    speed: SPEECH_ENDPOINT_SPEED,
    voices: SPEECH_ENDPOINT_VOICES,
    shutdownOn: SPEECH_ENDPOINT_SHUTDOWN,
  },
  'gpt-4o-mini-tts': {
    api: 'speech-endpoint',
    speed: SPEECH_ENDPOINT_SPEED,
    voices: SPEECH_ENDPOINT_VOICES,
    shutdownOn: SPEECH_ENDPOINT_SHUTDOWN,
  },
} as const satisfies Record<string, SpeechModelRules>;

export type SpeechModel = keyof typeof SPEECH_MODELS;
export const SPEECH_MODEL_IDS = Object.keys(SPEECH_MODELS) as [SpeechModel, ...SpeechModel[]];

/**
 * The spec names tts-1, which OpenAI shuts down on 2027-01-06; its replacement, the Realtime API's
 * gpt-realtime-2.1-mini, is the default from now on (SPEECH_MODEL chooses another).
 */
export const DEFAULT_SPEECH_MODEL: SpeechModel = 'gpt-realtime-2.1-mini';

export function isSpeechModel(value: string): value is SpeechModel {
  return Object.hasOwn(SPEECH_MODELS, value);
}

/**
 * The provider's voice a spec voice is read with on a model. Requests pass the schema's voices only; a
 * voice that did not (a record written by hand) goes as it is, for the provider to refuse.
 */
export function voiceUsed(model: SpeechModel, voice: VoiceId): string {
  return (SPEECH_MODELS[model].voices as Partial<Record<string, string>>)[voice] ?? voice;
}

/** Whether OpenAI has shut the model down by `now` (its shutdown day has begun, UTC). */
export function isRetired(model: SpeechModel, now: number): boolean {
  const { shutdownOn } = SPEECH_MODELS[model];
  return shutdownOn !== null && now >= Date.parse(`${shutdownOn}T00:00:00Z`);
}

/** Why a speed is refused on a model, in words a creator can act on; null when it is in range. */
export function speedOutOfRange(model: SpeechModel, speed: number): string | null {
  const { min, max } = SPEECH_MODELS[model].speed;
  if (speed >= min && speed <= max) return null;
  return `speed must be from ${min} to ${max} with the speech model in use (${model})`;
}

/**
 * What operators are told of the speech model at start-up: null while it has no announced shutdown; a
 * warning naming the day before it; and once it has passed, that speech is not served with it.
 */
export function speechModelNotice(model: SpeechModel, now: number): { retired: boolean; message: string } | null {
  const { shutdownOn } = SPEECH_MODELS[model];
  if (shutdownOn === null) return null;
  const instead = `set SPEECH_MODEL=${DEFAULT_SPEECH_MODEL} (the Realtime API)`;
  return isRetired(model, now)
    ? {
        retired: true,
        message: `SPEECH_MODEL=${model}: OpenAI shut ${model} down on ${shutdownOn}, so speech is not served; ${instead}`,
      }
    : {
        retired: false,
        message: `SPEECH_MODEL=${model}: OpenAI shuts ${model} down on ${shutdownOn} and speech stops then; ${instead} before`,
      };
}

/** The models the Realtime API serves. */
export type RealtimeSpeechModel = {
  [M in SpeechModel]: (typeof SPEECH_MODELS)[M]['api'] extends 'realtime' ? M : never;
}[SpeechModel];

export function isRealtimeModel(model: SpeechModel): model is RealtimeSpeechModel {
  return SPEECH_MODELS[model].api === 'realtime';
}
