import { speakIfEspeakInstalled } from '../../media/espeakSpeech';
import { encodeALaw, encodeMuLaw } from '../../media/g711';
import { decodeWav, pcm16LittleEndian, resample } from '../../media/pcm';
import { renderToneSamples } from '../../media/toneSpeech';
import type { RealtimeAudioFormat } from './realtimeEvents';
import { REALTIME_VOICES, type RealtimeVoice } from './realtimeVoices';

/** The Realtime API's PCM: 16-bit, 24 kHz, mono. G.711 (pcmu, pcma) runs at 8 kHz, one byte a sample. */
const PCM_SAMPLE_RATE = 24_000;
const G711_SAMPLE_RATE = 8_000;

export interface RealtimeAudio {
  /** The audio in the response's output format, as the deltas carry it once base64-decoded. */
  bytes: Buffer;
  bytesPerSecond: number;
}

export interface SpeechSettings {
  voice: RealtimeVoice;
  speed: number;
  /** An espeak-ng voice name (speechLanguage.ts). */
  language: string;
  format: RealtimeAudioFormat;
}

/** The transcript spoken: by espeak-ng when installed (resampled to 24 kHz), else tones; then encoded. */
export async function synthesizeRealtimeAudio(transcript: string, settings: SpeechSettings): Promise<RealtimeAudio> {
  const sound = REALTIME_VOICES[settings.voice];
  const wav = await speakIfEspeakInstalled(transcript, sound.espeakVariant, settings.speed, settings.language);
  const samples =
    wav === undefined
      ? renderToneSamples(transcript, sound.toneHz, settings.speed, PCM_SAMPLE_RATE)
      : resampledWav(wav, PCM_SAMPLE_RATE);
  return encode(samples, settings.format);
}

function resampledWav(wav: Buffer, sampleRate: number): Int16Array {
  const decoded = decodeWav(wav);
  return resample(decoded.samples, decoded.sampleRate, sampleRate);
}

export function bytesPerSecondOf(format: RealtimeAudioFormat): number {
  return format.type === 'audio/pcm' ? PCM_SAMPLE_RATE * 2 : G711_SAMPLE_RATE;
}

function encode(samples: Int16Array, format: RealtimeAudioFormat): RealtimeAudio {
  const bytesPerSecond = bytesPerSecondOf(format);
  switch (format.type) {
    case 'audio/pcm':
      return { bytes: pcm16LittleEndian(samples), bytesPerSecond };
    case 'audio/pcmu':
      return { bytes: encodeMuLaw(resample(samples, PCM_SAMPLE_RATE, G711_SAMPLE_RATE)), bytesPerSecond };
    case 'audio/pcma':
      return { bytes: encodeALaw(resample(samples, PCM_SAMPLE_RATE, G711_SAMPLE_RATE)), bytesPerSecond };
  }
}
