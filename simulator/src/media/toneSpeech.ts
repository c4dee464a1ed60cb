import { encodeWav } from './wav';

const SPEECH_SAMPLE_RATE = 16_000;
const SECONDS_PER_CHARACTER = 0.05;
// Without a cap, 4096 characters at speed 0.25 would be a 13-minute, 26 MB file.
const SPEECH_MAX_SECONDS = 60;
const FADE_SECONDS = 0.005;
const AMPLITUDE = 0.3 * 32767;

/**
 * Stand-in "speech" when espeak-ng is missing: one short tone per character (silence for spaces), so the
 * length follows the input and speed, and the pitch follows the voice. Mono 16-bit samples.
 */
export function renderToneSamples(
  input: string,
  baseFrequencyHz: number,
  speed: number,
  sampleRate: number,
  maxSeconds = Infinity,
): Int16Array {
  const characters = [...input];
  if (characters.length === 0) return new Int16Array(0);
  const seconds = Math.min(maxSeconds, (characters.length * SECONDS_PER_CHARACTER) / speed);
  const samplesPerCharacter = Math.max(1, Math.floor((seconds * sampleRate) / characters.length));
  const audibleCharacters = Math.min(characters.length, Math.floor((seconds * sampleRate) / samplesPerCharacter));
  const samples = new Int16Array(audibleCharacters * samplesPerCharacter);
  const fadeSamples = FADE_SECONDS * sampleRate;

  for (let c = 0; c < audibleCharacters; c++) {
    const character = characters[c] ?? ' ';
    if (/\s/.test(character)) continue;
    // A semitone step per character code keeps neighbouring letters audibly different.
    const frequency = baseFrequencyHz * 2 ** (((character.codePointAt(0) ?? 0) % 12) / 12);
    const start = c * samplesPerCharacter;
    for (let i = 0; i < samplesPerCharacter; i++) {
      const fade = Math.min(1, i / fadeSamples, (samplesPerCharacter - i) / fadeSamples);
      samples[start + i] = Math.round(AMPLITUDE * fade * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
    }
  }
  return samples;
}

/** The speech endpoint's tone fallback: a 16 kHz WAV file, at most a minute long. */
export function renderToneSpeech(input: string, baseFrequencyHz: number, speed: number): Buffer {
  return encodeWav(
    renderToneSamples(input, baseFrequencyHz, speed, SPEECH_SAMPLE_RATE, SPEECH_MAX_SECONDS),
    SPEECH_SAMPLE_RATE,
  );
}
