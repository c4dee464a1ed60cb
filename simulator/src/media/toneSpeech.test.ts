import { describe, expect, it } from 'vitest';
import { renderToneSpeech } from './toneSpeech';

const HEADER_BYTES = 44;
const BYTES_PER_SECOND = 16_000 * 2;

function seconds(wav: Buffer): number {
  return (wav.length - HEADER_BYTES) / BYTES_PER_SECOND;
}

describe('renderToneSpeech', () => {
  it('is a WAV file whose length follows the input and the speed', () => {
    const short = renderToneSpeech('hello', 220, 1);
    const long = renderToneSpeech('hello there, how are you today', 220, 1);
    const fast = renderToneSpeech('hello there, how are you today', 220, 2);

    expect(short.toString('ascii', 0, 4)).toBe('RIFF');
    expect(short.toString('ascii', 8, 12)).toBe('WAVE');
    expect(short.readUInt32LE(40)).toBe(short.length - HEADER_BYTES);
    expect(seconds(long)).toBeGreaterThan(seconds(short) * 5);
    expect(seconds(fast)).toBeCloseTo(seconds(long) / 2, 1);
  });

  it('sounds different for different voices', () => {
    expect(renderToneSpeech('hello', 110, 1).equals(renderToneSpeech('hello', 262, 1))).toBe(false);
  });

  it('caps the length of very long input', () => {
    expect(seconds(renderToneSpeech('a'.repeat(4096), 220, 0.25))).toBeLessThanOrEqual(60);
  });
});
