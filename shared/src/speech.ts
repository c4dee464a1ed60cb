export const VOICE_GENDERS = ['female', 'male'] as const;
export type VoiceGender = (typeof VOICE_GENDERS)[number];

export const VOICES = {
  female: [
    { id: 'nova', description: 'energetic, bright' },
    { id: 'shimmer', description: 'warm, welcoming' },
    { id: 'alloy', description: 'professional, clear' },
  ],
  male: [
    { id: 'echo', description: 'clear, articulate' },
    { id: 'onyx', description: 'deep, authoritative' },
    { id: 'fable', description: 'narrative, engaging' },
  ],
} as const satisfies Record<VoiceGender, readonly { id: string; description: string }[]>;

export type VoiceId = (typeof VOICES)[VoiceGender][number]['id'];
export const VOICE_IDS = [...VOICES.female, ...VOICES.male].map((voice) => voice.id) as [VoiceId, ...VoiceId[]];

/** Spec §4: changing gender resets the voice to the first voice of that gender. */
export function defaultVoiceFor(gender: VoiceGender): VoiceId {
  return VOICES[gender][0].id;
}

export function genderOfVoice(voice: VoiceId): VoiceGender {
  return VOICES.female.some((candidate) => candidate.id === voice) ? 'female' : 'male';
}

export const LANGUAGE_GROUPS = [
  {
    label: 'Regional Languages',
    languages: [
      { code: 'hi-IN', name: 'Hindi' },
      { code: 'bn-IN', name: 'Bengali' },
      { code: 'ta-IN', name: 'Tamil' },
      { code: 'te-IN', name: 'Telugu' },
      { code: 'ml-IN', name: 'Malayalam' },
      { code: 'kn-IN', name: 'Kannada' },
    ],
  },
  {
    label: 'International Languages',
    languages: [
      { code: 'en-US', name: 'English (US)' },
      { code: 'en-GB', name: 'English (UK)' },
      { code: 'fr-FR', name: 'French' },
      { code: 'de-DE', name: 'German' },
      { code: 'es-ES', name: 'Spanish' },
      { code: 'it-IT', name: 'Italian' },
      { code: 'ja-JP', name: 'Japanese' },
      { code: 'ko-KR', name: 'Korean' },
      { code: 'zh-CN', name: 'Chinese (Mandarin)' },
    ],
  },
] as const;

export type LanguageCode = (typeof LANGUAGE_GROUPS)[number]['languages'][number]['code'];
export const LANGUAGE_CODES = LANGUAGE_GROUPS.flatMap((group) => group.languages.map((language) => language.code)) as [
  LanguageCode,
  ...LanguageCode[],
];

/** The English name of one of the spec's languages. */
export function languageName(code: LanguageCode): string {
  for (const group of LANGUAGE_GROUPS) {
    const language = group.languages.find((candidate) => candidate.code === code);
    if (language !== undefined) return language.name;
  }
  return code;
}

/**
 * The audio formats a creator may ask for: those OpenAI's speech endpoint returns and the worker marks
 * (AI-content tags, the Free chime). The Realtime API returns PCM, which the worker converts.
 */
export const SPEECH_FORMATS = ['mp3', 'wav', 'opus', 'flac'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

/** Spec §9: speed 1 and mp3 by default (the model: speech-models.ts). */
export const SPEECH_DEFAULTS = { speed: 1, format: 'mp3' } as const satisfies { speed: number; format: SpeechFormat };
/** Every speed some speech model takes; the model in use narrows it (speech-models.ts). */
export const SPEECH_SPEED_RANGE = { min: 0.25, max: 4 } as const;
/** OpenAI's limit on the input of one speech request. */
export const MAX_SPEECH_INPUT_LENGTH = 4096;

/** What a format's file is served as. */
export const SPEECH_MIME_TYPES: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  opus: 'audio/ogg',
  flac: 'audio/flac',
};
