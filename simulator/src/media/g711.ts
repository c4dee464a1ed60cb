/**
 * G.711 companding of 16-bit samples into 8-bit codes, after the classic reference implementation
 * (ITU-T G.711; Sun Microsystems' g711.c): μ-law for `audio/pcmu`, A-law for `audio/pcma`.
 */

const MU_LAW_BIAS = 0x84;
const MU_LAW_CLIP = 32635;

export function encodeMuLaw(samples: Int16Array): Buffer {
  const codes = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i]!;
    const sign = sample < 0 ? 0x80 : 0;
    const magnitude = Math.min(Math.abs(sample), MU_LAW_CLIP) + MU_LAW_BIAS;
    const exponent = bitLength(magnitude >> 7) - 1;
    const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
    codes[i] = ~(sign | (exponent << 4) | mantissa) & 0xff;
  }
  return codes;
}

export function encodeALaw(samples: Int16Array): Buffer {
  const codes = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i]! >> 3;
    const sign = sample >= 0 ? 0x80 : 0;
    const magnitude = sign ? sample : -sample - 1;
    const segment = bitLength(magnitude >> 5);
    const mantissa = (magnitude >> Math.max(1, segment)) & 0x0f;
    codes[i] = (sign | (segment << 4) | mantissa) ^ 0x55;
  }
  return codes;
}

function bitLength(value: number): number {
  return 32 - Math.clz32(value);
}
