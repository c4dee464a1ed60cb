interface VoiceSound {
  /** espeak-ng voice variant: f* are female, m* male, matching how each OpenAI voice sounds. */
  espeakVariant: string;
  /** Base pitch of the tone fallback. */
  toneHz: number;
}

export const OPENAI_VOICES: Readonly<Record<string, VoiceSound>> = {
  alloy: { espeakVariant: 'f1', toneHz: 233 },
  nova: { espeakVariant: 'f3', toneHz: 262 },
  shimmer: { espeakVariant: 'f2', toneHz: 247 },
  coral: { espeakVariant: 'f4', toneHz: 277 },
  sage: { espeakVariant: 'f5', toneHz: 220 },
  echo: { espeakVariant: 'm1', toneHz: 147 },
  onyx: { espeakVariant: 'm3', toneHz: 110 },
  fable: { espeakVariant: 'm2', toneHz: 131 },
  ash: { espeakVariant: 'm4', toneHz: 123 },
  ballad: { espeakVariant: 'm5', toneHz: 165 },
  verse: { espeakVariant: 'm6', toneHz: 139 },
};
