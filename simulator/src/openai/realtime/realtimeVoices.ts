/** How a voice sounds here: an espeak-ng variant (f* female, m* male) and the base pitch of the tone fallback. */
export interface RealtimeVoiceSound {
  espeakVariant: string;
  toneHz: number;
}

/**
 * The Realtime API's built-in voices (RealtimeAudioConfigOutput.voice). The eight it shares with the
 * speech endpoint sound as they do there (openai/voices.ts); marin is female and cedar male.
 */
export const REALTIME_VOICES = {
  alloy: { espeakVariant: 'f1', toneHz: 233 },
  coral: { espeakVariant: 'f4', toneHz: 277 },
  sage: { espeakVariant: 'f5', toneHz: 220 },
  shimmer: { espeakVariant: 'f2', toneHz: 247 },
  marin: { espeakVariant: 'f3', toneHz: 262 },
  ash: { espeakVariant: 'm4', toneHz: 123 },
  ballad: { espeakVariant: 'm5', toneHz: 165 },
  echo: { espeakVariant: 'm1', toneHz: 147 },
  verse: { espeakVariant: 'm6', toneHz: 139 },
  cedar: { espeakVariant: 'm3', toneHz: 110 },
} as const satisfies Record<string, RealtimeVoiceSound>;

export type RealtimeVoice = keyof typeof REALTIME_VOICES;
export const REALTIME_VOICE_NAMES = Object.keys(REALTIME_VOICES) as RealtimeVoice[];

export function isRealtimeVoice(value: unknown): value is RealtimeVoice {
  return typeof value === 'string' && Object.hasOwn(REALTIME_VOICES, value);
}
