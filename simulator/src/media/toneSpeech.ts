import { encodeWav } from './wav';

const SAMPLE_RATE = 16_000;
const SECONDS_PER_CHARACTER = 0.05;
// Without a cap, 4096 characters at speed 0.25 would be a 13-minute, 26 MB file.
const MAX_SECONDS = 60;
const FADE_SAMPLES = 80;
const AMPLITUDE = 0.3 * 32767;

/**
 * Stand-in "speech" when espeak-ng is missing: one short tone per character (silence for spaces), so the
 * length follows the input and speed, and the pitch follows the voice.
 */
export function renderToneSpeech(input: string, baseFrequencyHz: number, speed: number): Buffer {
  const characters = [...input];
  const seconds = Math.min(MAX_SECONDS, (characters.length * SECONDS_PER_CHARACTER) / speed);
  const samplesPerCharacter = Math.max(1, Math.floor((seconds * SAMPLE_RATE) / characters.length));
  const audibleCharacters = Math.min(characters.length, Math.floor((seconds * SAMPLE_RATE) / samplesPerCharacter));
  const samples = new Int16Array(audibleCharacters * samplesPerCharacter);

  for (let c = 0; c < audibleCharacters; c++) {
    const character = characters[c] ?? ' ';
    if (/\s/.test(character)) continue;
    // A semitone step per character code keeps neighbouring letters audibly different.
    const frequency = baseFrequencyHz * 2 ** (((character.codePointAt(0) ?? 0) % 12) / 12);
    const start = c * samplesPerCharacter;
    for (let i = 0; i < samplesPerCharacter; i++) {
      const fade = Math.min(1, i / FADE_SAMPLES, (samplesPerCharacter - i) / FADE_SAMPLES);
      samples[start + i] = Math.round(AMPLITUDE * fade * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE));
    }
  }
  return encodeWav(samples, SAMPLE_RATE);
}
