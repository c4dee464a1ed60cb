import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentCredentials, generateDevelopmentCredentials, markOutput, runFfmpeg } from '@mediagen/worker';
import { median } from '../lib/env';
import type { Figure } from '../lib/report';

const RUNS = 5;
const VIDEO_SECONDS = 6;

/** Wall time of one marking, median of RUNS (the first, which loads libraries, left out). */
async function timed(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

const CPU_RUNS = 30;

/**
 * This process's CPU time per marking, libvips's threads included, over CPU_RUNS: what a worker pays per
 * output whatever else shares its cores (the wall time above hides work done on other threads).
 */
async function cpuPerRun(work: () => Promise<unknown>): Promise<number> {
  await work();
  const before = process.cpuUsage();
  for (let run = 0; run < CPU_RUNS; run += 1) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / CPU_RUNS;
}

/**
 * What marking costs the worker once per completed generation: a 1024² PNG (the spec's default image),
 * a 6 s 720p H.264 video (MiniMax's standard), and speech, each made here by ffmpeg's test sources.
 */
export async function markingBench(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagen-bench-marking-'));
  try {
    const files = { image: join(dir, 'image.png'), video: join(dir, 'video.mp4'), speech: join(dir, 'speech.mp3') };
    await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=1024x1024', '-frames:v', '1', files.image], 60_000);
    await runFfmpeg(
      [
        ['-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=25:duration=${VIDEO_SECONDS}`],
        ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', files.video],
      ].flat(),
      120_000,
    );
    await runFfmpeg(
      ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=10', '-c:a', 'libmp3lame', files.speech],
      60_000,
    );
    const [image, video, speech] = await Promise.all([
      readFile(files.image),
      readFile(files.video),
      readFile(files.speech),
    ]);
    const imageMs = await timed(() => markOutput('image', image, 'png'));
    const imageCpuMs = await cpuPerRun(() => markOutput('image', image, 'png'));
    const videoMs = await timed(() => markOutput('video', video, 'mp4'));
    const speechMs = await timed(() => markOutput('speech', speech, 'mp3'));
    // Signing alone, on files already marked: what Content Credentials add to the marking above.
    const credentials = new ContentCredentials({ ...(await generateDevelopmentCredentials()), timestampUrl: null });
    const [markedImage, markedSpeech] = [
      await markOutput('image', image, 'png'),
      await markOutput('speech', speech, 'mp3'),
    ];
    const signImageMs = await timed(() => credentials.signOutput(markedImage, 'image/png', 'sdxl-1.0'));
    const signSpeechMs = await timed(() => credentials.signOutput(markedSpeech, 'audio/mpeg', 'gpt-4o-mini-tts'));
    return [
      {
        part: 'marking',
        name: 'mark a 1024² image (metadata + marked copy)',
        value: imageMs,
        unit: 'ms',
        note: `median of ${RUNS}`,
      },
      {
        part: 'marking',
        name: 'CPU to mark a 1024² image',
        value: imageCpuMs,
        unit: 'ms',
        note: `user + system time of the process, mean of ${CPU_RUNS}`,
      },
      {
        part: 'marking',
        name: 'mark a video, per second of 720p H.264',
        value: videoMs / VIDEO_SECONDS,
        unit: 'ms',
        note: `${Math.round(videoMs)} ms for ${VIDEO_SECONDS} s (clean copy remuxed, marked copy re-encoded with x264 veryfast), median of ${RUNS}`,
      },
      {
        part: 'marking',
        name: 'mark 10 s of MP3 speech (tags + chime copy)',
        value: speechMs,
        unit: 'ms',
        note: `median of ${RUNS}`,
      },
      {
        part: 'marking',
        name: 'sign a 1024² image with Content Credentials (original + marked copy)',
        value: signImageMs,
        unit: 'ms',
        note: `median of ${RUNS}, no timestamp authority; ${Math.round(imageMs)} ms to mark without it`,
      },
      {
        part: 'marking',
        name: 'sign 10 s of MP3 speech with Content Credentials (original + chime copy)',
        value: signSpeechMs,
        unit: 'ms',
        note: `median of ${RUNS}, no timestamp authority`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
