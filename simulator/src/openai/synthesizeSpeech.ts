import { EspeakMissingError, speakWithEspeak } from '../media/espeakSpeech';
import { renderToneSpeech } from '../media/toneSpeech';
import type { SpeechRequest } from './validateSpeechRequest';
import { OPENAI_VOICES } from './voices';

// Whether espeak-ng is installed is a property of the machine, so one failed spawn settles it for good.
let espeakMissing = false;

/** WAV audio of the input: spoken by espeak-ng when installed, else tones (see README). */
export async function synthesizeSpeech(request: SpeechRequest): Promise<Buffer> {
  const voice = OPENAI_VOICES[request.voice];
  if (!voice) throw new Error(`unknown voice ${request.voice}`);
  if (!espeakMissing) {
    try {
      return await speakWithEspeak(request.input, voice.espeakVariant, request.speed);
    } catch (error) {
      if (!(error instanceof EspeakMissingError)) throw error;
      espeakMissing = true;
    }
  }
  return renderToneSpeech(request.input, voice.toneHz, request.speed);
}
