import { languageName, type SpeechDetails, type VoiceId } from '@mediagen/shared';

export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** 'Nova, read by Coral' when the model reads the spec voice with another of its own; else 'Nova'. */
export function voiceLabel(voice: VoiceId, used: string): string {
  return used === voice ? capitalize(voice) : `${capitalize(voice)}, read by ${capitalize(used)}`;
}

/** How a speech was read, for the panel and the library: 'Nova, read by Coral · French'. */
export function speechSummary(speech: SpeechDetails): string {
  return `${voiceLabel(speech.voice, speech.voiceUsed)} · ${languageName(speech.language)}`;
}

/** Shown with the language choice: the model reads what it is given, in whatever language it is. */
export const LANGUAGE_HINT = 'Text in another language is read as written, never translated.';
