/**
 * The languages the product speaks (the spec's BCP-47 tags) and the espeak-ng voice for each, so the
 * simulated model speaks the language its instructions name. English otherwise.
 */
const ESPEAK_VOICES: Readonly<Record<string, string>> = {
  'hi-IN': 'hi',
  'bn-IN': 'bn',
  'ta-IN': 'ta',
  'te-IN': 'te',
  'ml-IN': 'ml',
  'kn-IN': 'kn',
  'en-US': 'en-us',
  'en-GB': 'en-gb',
  'fr-FR': 'fr',
  'de-DE': 'de',
  'es-ES': 'es',
  'it-IT': 'it',
  'ja-JP': 'ja',
  'ko-KR': 'ko',
  'zh-CN': 'cmn',
};
const DEFAULT_ESPEAK_VOICE = 'en';

/** The espeak-ng voice of the first of those language tags the instructions contain. */
export function espeakVoiceFor(instructions: string): string {
  for (const [tag] of instructions.matchAll(/\b[a-z]{2}-[A-Z]{2}\b/g)) {
    const voice = ESPEAK_VOICES[tag];
    if (voice !== undefined) return voice;
  }
  return DEFAULT_ESPEAK_VOICE;
}
