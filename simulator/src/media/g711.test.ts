import { describe, expect, it } from 'vitest';
import { encodeALaw, encodeMuLaw } from './g711';

// Codes of the G.711 reference implementation for silence, ±1, the extremes and ±1000.
const SAMPLES = new Int16Array([0, -1, 32767, -32768, 1000, -1000]);

describe('G.711', () => {
  it('encodes μ-law as the reference does', () => {
    expect([...encodeMuLaw(SAMPLES)]).toEqual([0xff, 0x7f, 0x80, 0x00, 0xce, 0x4e]);
  });

  it('encodes A-law as the reference does', () => {
    expect([...encodeALaw(SAMPLES)]).toEqual([0xd5, 0x55, 0xaa, 0x2a, 0xfa, 0x7a]);
  });
});
