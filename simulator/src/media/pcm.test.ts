import { describe, expect, it } from 'vitest';
import { decodeWav, pcm16LittleEndian, resample } from './pcm';
import { encodeWav } from './wav';

describe('PCM helpers', () => {
  it('reads back the samples of a WAV file', () => {
    const samples = new Int16Array([0, 1, -1, 32767, -32768]);
    expect(decodeWav(encodeWav(samples, 16_000))).toEqual({ samples, sampleRate: 16_000 });
  });

  it('reads a WAV file whose data size runs past its end, as espeak-ng writes to a pipe', () => {
    const wav = encodeWav(new Int16Array([5, 6, 7]), 22_050);
    wav.writeUInt32LE(0x7ffff000, 40);
    expect(decodeWav(wav).samples).toEqual(new Int16Array([5, 6, 7]));
  });

  it('resamples to the same duration at the new rate', () => {
    const second = new Int16Array(22_050).map((_, i) => Math.round(10_000 * Math.sin(i / 10)));
    const resampled = resample(second, 22_050, 24_000);
    expect(resampled).toHaveLength(24_000);
    expect(resampled[0]).toBe(0);
    expect(Math.max(...resampled)).toBeLessThanOrEqual(10_000);
  });

  it('writes little-endian bytes', () => {
    expect([...pcm16LittleEndian(new Int16Array([0x0102, -2]))]).toEqual([0x02, 0x01, 0xfe, 0xff]);
  });
});
