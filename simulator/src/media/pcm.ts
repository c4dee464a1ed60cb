/** Mono 16-bit PCM: reading it out of a WAV file, changing its sample rate, writing it as bytes. */

export interface PcmAudio {
  samples: Int16Array;
  sampleRate: number;
}

/**
 * The samples of a mono 16-bit PCM WAV file (as espeak-ng writes), found by walking its chunks. A data
 * chunk whose size runs past the end (a size espeak could not write back into a pipe) ends at the end.
 */
export function decodeWav(wav: Buffer): PcmAudio {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let sampleRate: number | undefined;
  for (let offset = 12; offset + 8 <= wav.length;) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = wav.readUInt16LE(body);
      const channels = wav.readUInt16LE(body + 2);
      const bitsPerSample = wav.readUInt16LE(body + 14);
      if (format !== 1 || channels !== 1 || bitsPerSample !== 16) throw new Error('not mono 16-bit PCM');
      sampleRate = wav.readUInt32LE(body + 4);
    } else if (id === 'data') {
      if (sampleRate === undefined) throw new Error('WAV data before its format');
      const end = Math.min(wav.length, body + size);
      const samples = new Int16Array(Math.floor((end - body) / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = wav.readInt16LE(body + i * 2);
      return { samples, sampleRate };
    }
    // RIFF chunks are padded to an even size.
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file without data');
}

/** The same sound at another sample rate, by linear interpolation: plenty for a stand-in voice. */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * toRate) / fromRate));
  const resampled = new Int16Array(length);
  const step = fromRate / toRate;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const before = Math.min(samples.length - 1, Math.floor(position));
    const after = Math.min(samples.length - 1, before + 1);
    const fraction = position - before;
    resampled[i] = Math.round(samples[before]! * (1 - fraction) + samples[after]! * fraction);
  }
  return resampled;
}

/** PCM16 little-endian bytes, whatever the machine's byte order. */
export function pcm16LittleEndian(samples: Int16Array): Buffer {
  const bytes = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) bytes.writeInt16LE(samples[i]!, i * 2);
  return bytes;
}
