import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { markOutput } from '../src/marking';
import { runFfmpeg } from '../src/marking/ffmpeg';

/**
 * What a Free plan's results look like, for the screenshots' README (`pnpm screenshots` runs this after the
 * browser tests): a drawn scene through the worker's own image marking, and a frame of ffmpeg's test
 * pattern through its video marking. Usage: tsx worker/scripts/mark-samples.ts <directory>
 */
const SCENE = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1e3a8a"/><stop offset="0.6" stop-color="#f472b6"/><stop offset="1" stop-color="#fde68a"/>
    </linearGradient>
  </defs>
  <rect width="1024" height="768" fill="url(#sky)"/>
  <circle cx="720" cy="430" r="120" fill="#fef3c7"/>
  <path d="M0 560 Q 260 420 520 540 T 1024 500 V 768 H 0 Z" fill="#14532d"/>
  <path d="M0 640 Q 300 560 620 650 T 1024 620 V 768 H 0 Z" fill="#052e16"/>
  <rect x="0" y="700" width="1024" height="68" fill="#f8fafc"/>
</svg>`;

async function main(directory: string) {
  const { marked: image } = await markOutput('image', await sharp(Buffer.from(SCENE)).png().toBuffer(), 'png');
  await writeFile(join(directory, 'free-image-watermark.png'), image);

  const work = await mkdtemp(join(tmpdir(), 'mediagen-mark-samples-'));
  try {
    const source = join(work, 'source.mp4');
    const pattern = 'testsrc2=size=1280x720:rate=24:duration=2';
    await runFfmpeg(['-f', 'lavfi', '-i', pattern, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', source], 60_000);
    const { marked: video } = await markOutput('video', await readFile(source), 'mp4');
    const markedVideo = join(work, 'marked.mp4');
    await writeFile(markedVideo, video);
    const frame = join(directory, 'free-video-watermark-frame.png');
    await runFfmpeg(['-y', '-ss', '1', '-i', markedVideo, '-frames:v', '1', frame], 30_000);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const directory = process.argv[2];
if (directory === undefined) {
  console.error('Usage: tsx worker/scripts/mark-samples.ts <directory>');
  process.exit(2);
}
await main(resolve(directory));
console.log(`Wrote free-image-watermark.png and free-video-watermark-frame.png to ${directory}`);
