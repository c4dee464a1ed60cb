import { speakIfEspeakInstalled } from '../media/espeakSpeech';
import { renderToneSpeech } from '../media/toneSpeech';
import type { SpeechRequest } from './validateSpeechRequest';
import { OPENAI_VOICES } from './voices';

/** WAV audio of the input: spoken by espeak-ng when installed, else tones (see README). */
export async function synthesizeSpeech(request: SpeechRequest): Promise<Buffer> {
  const voice = OPENAI_VOICES[request.voice];
  if (!voice) throw new Error(`unknown voice ${request.voice}`);
  const spoken = await speakIfEspeakInstalled(request.input, voice.espeakVariant, request.speed);
  return spoken ?? renderToneSpeech(request.input, voice.toneHz, request.speed);
}
