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

/** Spec §9: speech defaults. */
export const SPEECH_DEFAULTS = { model: 'tts-1', speed: 1, responseFormat: 'mp3' } as const;
export const SPEECH_SPEED_RANGE = { min: 0.25, max: 4 } as const;
/** OpenAI's limit on the input of one speech request. */
export const MAX_SPEECH_INPUT_LENGTH = 4096;
