import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { aiContentTags } from './ai-content-marks';
import { runFfmpeg } from './ffmpeg';
import { productMarkLayer } from './product-mark';

const VIDEO_TIMEOUT_MS = 10 * 60 * 1000;
const SPEECH_TIMEOUT_MS = 60 * 1000;

/** What ffmpeg writes each speech format with when it has to re-encode (the marked copy). */
export const SPEECH_ENCODERS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-q:a', '4', '-id3v2_version', '4'],
  wav: ['-c:a', 'pcm_s16le'],
  ogg: ['-c:a', 'libopus', '-b:a', '48k'],
  opus: ['-c:a', 'libopus', '-b:a', '48k'],
  flac: ['-c:a', 'flac'],
  aac: ['-c:a', 'aac', '-b:a', '96k'],
};

/**
 * The audible mark of free speech: a short two-note chime before the voice (0.5 s in all), quiet enough
 * not to startle and impossible to miss. Metadata can be stripped; the chime cannot without editing.
 */
const FORMAT = 'aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=mono';
const CHIME_FILTER =
  `sine=frequency=880:duration=0.14,volume=0.25,afade=t=out:st=0.09:d=0.05,${FORMAT}[n1];` +
  `sine=frequency=1320:duration=0.22,volume=0.25,afade=t=out:st=0.12:d=0.1,${FORMAT}[n2];` +
  `anullsrc=channel_layout=mono:sample_rate=44100,atrim=duration=0.14,${FORMAT}[gap]`;

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagen-mark-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * An MP4 as it is kept: the provider's streams copied as they are with the AI-content tags, and a copy
 * re-encoded (H.264) with the product mark over every frame. The mark is drawn at the frame's size (read
 * from its first frame): a larger layer would be decoded and clipped again for every frame.
 */
export async function markVideo(mp4: Uint8Array): Promise<{ clean: Buffer; marked: Buffer }> {
  return inTempDir(async (dir) => {
    const [input, firstFrame, mark] = [join(dir, 'in.mp4'), join(dir, 'first.png'), join(dir, 'mark.png')];
    await writeFile(input, mp4);
    await runFfmpeg(['-i', input, '-frames:v', '1', firstFrame], VIDEO_TIMEOUT_MS);
    const { width, height } = await sharp(firstFrame).metadata();
    if (width === undefined || height === undefined) throw new Error('the video has no frame size');
    await writeFile(mark, await productMarkLayer(width, height));
    const tags = [...aiContentTags(), '-movflags', '+use_metadata_tags+faststart'];
    await Promise.all([
      runFfmpeg(['-i', input, '-map', '0', '-c', 'copy', ...tags, join(dir, 'clean.mp4')], VIDEO_TIMEOUT_MS),
      runFfmpeg(
        [
          // The still mark repeats for as long as the video runs.
          ['-i', input, '-loop', '1', '-i', mark],
          ['-filter_complex', '[0:v][1:v]overlay=0:0:shortest=1[v]', '-map', '[v]', '-map', '0:a?'],
          ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'copy'],
          [...tags, join(dir, 'marked.mp4')],
        ].flat(),
        VIDEO_TIMEOUT_MS,
      ),
    ]);
    return { clean: await readFile(join(dir, 'clean.mp4')), marked: await readFile(join(dir, 'marked.mp4')) };
  });
}

/**
 * Speech as it is kept: the provider's audio copied as it is with the AI-content tags (ID3 for MP3, RIFF
 * INFO for WAV, Vorbis comments for Ogg/Opus/FLAC; raw AAC has no place for tags), and a copy that starts
 * with the chime, in the same format.
 */
export async function markSpeech(audio: Uint8Array, extension: string): Promise<{ clean: Buffer; marked: Buffer }> {
  const encoder = SPEECH_ENCODERS[extension];
  if (encoder === undefined) throw new Error(`no way to mark .${extension} audio`);
  return inTempDir(async (dir) => {
    const input = join(dir, `in.${extension}`);
    await writeFile(input, audio);
    const id3 = extension === 'mp3' ? ['-id3v2_version', '4'] : [];
    await Promise.all([
      runFfmpeg(
        ['-i', input, '-map', '0', '-c', 'copy', ...aiContentTags(), ...id3, join(dir, `clean.${extension}`)],
        SPEECH_TIMEOUT_MS,
      ),
      runFfmpeg(
        [
          ['-i', input, '-filter_complex'],
          [`${CHIME_FILTER};[0:a]${FORMAT}[voice];[n1][n2][gap][voice]concat=n=4:v=0:a=1[out]`],
          ['-map', '[out]', ...encoder, ...aiContentTags(), join(dir, `marked.${extension}`)],
        ].flat(),
        SPEECH_TIMEOUT_MS,
      ),
    ]);
    return {
      clean: await readFile(join(dir, `clean.${extension}`)),
      marked: await readFile(join(dir, `marked.${extension}`)),
    };
  });
}
