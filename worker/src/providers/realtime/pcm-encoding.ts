import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPEECH_MIME_TYPES, type SpeechFormat } from '@mediagen/shared';
import { runFfmpeg } from '../../marking/ffmpeg';
import { SPEECH_ENCODERS } from '../../marking/media-marks';

/** What the Realtime API sends when asked for `audio/pcm`: 16-bit little-endian samples, 24 kHz, mono. */
export const REALTIME_PCM = { sampleRate: 24_000, bytesPerSample: 2 } as const;

/** A breath between the parts of a long text, which the model read one response each. */
const PAUSE_BETWEEN_PARTS_MS = 250;
const ENCODE_TIMEOUT_MS = 60_000;

/** The parts' audio in order, with a short silence between them. */
export function joinReadings(parts: readonly Buffer[]): Buffer {
  const pause = Buffer.alloc(
    Math.round((REALTIME_PCM.sampleRate * PAUSE_BETWEEN_PARTS_MS) / 1000) * REALTIME_PCM.bytesPerSample,
  );
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [pause, part])));
}

export function pcmSeconds(pcm: Buffer): number {
  return pcm.byteLength / REALTIME_PCM.bytesPerSample / REALTIME_PCM.sampleRate;
}

/** PCM as the format the creator asked for, encoded by the ffmpeg the worker ships. */
export async function encodePcm(pcm: Buffer, format: SpeechFormat): Promise<{ bytes: Buffer; mimeType: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagen-speech-'));
  try {
    const [input, output] = [join(dir, 'reading.pcm'), join(dir, `reading.${containerOf(format)}`)];
    await writeFile(input, pcm);
    await runFfmpeg(
      [
        ...['-f', 's16le', '-ar', String(REALTIME_PCM.sampleRate), '-ac', '1', '-i', input],
        ...SPEECH_ENCODERS[containerOf(format)]!,
        output,
      ],
      ENCODE_TIMEOUT_MS,
    );
    return { bytes: await readFile(output), mimeType: SPEECH_MIME_TYPES[format] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Opus is served in an Ogg container. */
function containerOf(format: SpeechFormat): string {
  return format === 'opus' ? 'ogg' : format;
}
