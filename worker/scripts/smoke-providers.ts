/**
 * `pnpm smoke:providers`: every provider API the plans use, once, through each real provider whose key is
 * set (in .env or the environment), with each step's timing: the check to run before a release. Images:
 * the v1 engine (Free) and Stable Image Core on v2beta (Pro), plus the 4K upscale with SMOKE_4K=1
 * (Enterprise; it costs more); videos: the base model (Free) and Hailuo-2.3 at 768P (Pro); speech. It
 * spends real credit. A provider without a key is skipped, and with no key at all nothing is called.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import {
  IMAGE_MODEL_RULES,
  IMAGE_UPSCALER,
  MAX_IMAGE_SEED,
  SPEECH_MODELS,
  VIDEO_PENDING_STATUSES,
  buildStabilityBody,
  buildStableImageForm,
  planVideo,
  voiceUsed,
  type MiniMaxVideoModel,
  type VideoResolution,
} from '@mediagen/shared';
import { loadWorkerConfig } from '../src/config';
import { withinUpscalerInput } from '../src/processors/image-processor';
import { maxPollsFor } from '../src/processors/video-polling';
import { GuardedDownloader } from '../src/providers/guarded-download';
import { MiniMaxClient } from '../src/providers/minimax-client';
import { OpenAISpeechClient } from '../src/providers/openai-speech-client';
import { openaiRealtime } from '../src/providers/realtime/realtime-endpoint';
import { RealtimeSpeechClient } from '../src/providers/realtime/realtime-speech-client';
import type { SpeechInput, SpeechSynthesizer } from '../src/providers/speech-synthesizer';
import { StabilityClient } from '../src/providers/stability-client';
import { StableImageClient } from '../src/providers/stable-image-client';

interface Step {
  provider: string;
  step: string;
  ms: number;
  detail: string;
}

const steps: Step[] = [];

async function timed<T>(
  provider: string,
  step: string,
  action: () => Promise<T>,
  detail: (result: T) => string,
): Promise<T> {
  const startedAt = performance.now();
  try {
    const result = await action();
    steps.push({ provider, step, ms: performance.now() - startedAt, detail: detail(result) });
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    steps.push({ provider, step, ms: performance.now() - startedAt, detail: `FAILED: ${message}` });
    throw error;
  }
}

const kb = (bytes: Uint8Array) => `${(bytes.byteLength / 1024).toFixed(0)} KB`;

if (existsSync('.env')) process.loadEnvFile('.env');
// Only the providers' settings are used here. Development mode lets a provider without a key be skipped
// (it reads as simulated) instead of refused; the ones with a key are the real providers.
const config = loadWorkerConfig({ ...process.env, MEDIAGEN_MODE: 'development' });
const downloader = new GuardedDownloader(config.videoDownload);
const output = process.env.SMOKE_OUTPUT_DIR ?? (await mkdtemp(join(tmpdir(), 'mediagen-smoke-')));
await mkdir(output, { recursive: true });

const IMAGE_PROMPT = 'a lighthouse on a cliff at dusk';

async function image(): Promise<void> {
  const client = new StabilityClient(config.stability);
  const body = buildStabilityBody(IMAGE_PROMPT, {}, randomInt(1, MAX_IMAGE_SEED), client.engine);
  const png = await timed(
    'stability',
    `text-to-image ${client.engine} ${body.width}x${body.height}`,
    async () => {
      const [sample] = await client.textToImage(body);
      if (sample === undefined || 'filtered' in sample) throw new Error('Stability filtered the image');
      return sample.png;
    },
    kb,
  );
  await writeFile(join(output, 'image.png'), png);

  const current = new StableImageClient(config.stability);
  const model = 'stable-image-core';
  const form = buildStableImageForm(IMAGE_PROMPT, { aspectRatio: '16:9' }, randomInt(1, MAX_IMAGE_SEED), model);
  const core = await timed(
    'stability',
    `v2beta generate/${IMAGE_MODEL_RULES[model].endpoint} ${form.aspect_ratio}`,
    () => current.generate(IMAGE_MODEL_RULES[model].endpoint!, form),
    (result) => `${kb(result.png)} seed ${result.seed}`,
  );
  await writeFile(join(output, 'image-core.png'), core.png);
  if (process.env.SMOKE_4K !== '1') return;
  const upscaled = await timed(
    'stability',
    `v2beta upscale/${IMAGE_UPSCALER.endpoint}`,
    async () => current.upscale(await withinUpscalerInput(core.png)),
    (result) => kb(result.png),
  );
  await writeFile(join(output, 'image-4k.png'), upscaled.png);
}

/** Each video model a plan sends, one after the other (MiniMax's RPM is small). */
async function videos(): Promise<void> {
  await video(config.minimax.model, 'video.mp4');
  await video('MiniMax-Hailuo-2.3', 'video-hailuo.mp4', '768P');
}

async function video(model: MiniMaxVideoModel, file: string, resolution?: VideoResolution): Promise<void> {
  const client = new MiniMaxClient({ ...config.minimax, download: (url, signal) => downloader.fetch(url, signal) });
  const { body } = planVideo(
    {
      prompt: 'waves rolling onto a beach at sunset',
      quality: 'standard',
      durationSeconds: 6,
      style: 'cinematic',
      ...(resolution === undefined ? {} : { resolution }),
    },
    model,
  );
  const label = [body.model, body.resolution, body.duration === undefined ? undefined : `${body.duration}s`]
    .filter((part) => part !== undefined)
    .join(' ');
  const taskId = await timed(
    'minimax',
    `start ${label} at ${config.minimax.baseUrl}`,
    () => client.startTask(body),
    (id) => `task ${id}`,
  );
  const { intervalMs } = config.videoPolling;
  const maxPolls = maxPollsFor(config.videoPolling, body.model);
  const done = await timed(
    'minimax',
    `${body.model}: poll until done`,
    async () => {
      for (let poll = 1; poll <= maxPolls; poll += 1) {
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
        const task = await client.queryTask(taskId);
        if (VIDEO_PENDING_STATUSES.has(task.status)) continue;
        if (task.status !== 'Success' || task.fileId === undefined) throw new Error(`task ended ${task.status}`);
        return { fileId: task.fileId, polls: poll };
      }
      throw new Error(`still running after ${maxPolls} polls`);
    },
    ({ fileId, polls }) => `file ${fileId} after ${polls} polls`,
  );
  const url = await timed(
    'minimax',
    `${body.model}: retrieve file`,
    () => client.retrieveDownloadUrl(done.fileId),
    () => 'download URL',
  );
  const downloaded = await timed(
    'minimax',
    `${body.model}: download`,
    () => client.downloadVideo(url),
    (result) => `${kb(result.bytes)} ${result.mimeType}`,
  );
  await writeFile(join(output, file), downloaded.bytes);
}

/**
 * Speech with SPEECH_MODEL (the Realtime API by default): a sentence, and a question, which a voice agent
 * would answer; both must be read word for word (the transcripts are checked inside the client).
 */
async function speech(): Promise<void> {
  const model = config.speechModel;
  const client: SpeechSynthesizer =
    SPEECH_MODELS[model].api === 'realtime'
      ? new RealtimeSpeechClient({ apiKey: config.openai.apiKey, endpoint: openaiRealtime(config.openai.baseUrl) })
      : new OpenAISpeechClient(config.openai);
  const texts = {
    sentence: 'Hello from MediaGen. This is the release smoke test.',
    question: 'What is your name?',
  };
  for (const [name, input] of Object.entries(texts)) {
    const request: SpeechInput = { input, voice: 'nova', language: 'en-US', speed: 1, format: 'mp3', model };
    const audio = await timed(
      'openai',
      `speech ${model} nova (read by ${voiceUsed(model, 'nova')}): ${name}`,
      () =>
        client.synthesize(request, AbortSignal.timeout(120_000), {
          progress: () => undefined,
          log: (line) => console.log(`  ${line}`),
        }),
      (result) => `${kb(result.bytes)} ${result.mimeType}`,
    );
    await writeFile(join(output, `speech-${name}.mp3`), audio.bytes);
  }
}

const checks = [
  { name: 'image', key: 'STABILITY_API_KEY', real: !config.stability.simulated, run: image },
  { name: 'video', key: 'MINIMAX_API_KEY', real: !config.minimax.simulated, run: videos },
  { name: 'speech', key: 'OPENAI_API_KEY', real: !config.openai.simulated, run: speech },
];
const skipped = checks.filter((check) => !check.real);
for (const check of skipped) console.log(`skipped ${check.name}: ${check.key} is not set`);
if (skipped.length === checks.length) {
  console.log('no provider key set: nothing called');
  process.exit(0);
}

const outcomes = await Promise.allSettled(checks.filter((check) => check.real).map((check) => check.run()));
console.log(`\n| provider | step | ms | result |\n| --- | --- | --- | --- |`);
for (const step of steps) console.log(`| ${step.provider} | ${step.step} | ${Math.round(step.ms)} | ${step.detail} |`);
console.log(`\nfiles in ${output}`);
process.exit(outcomes.some((outcome) => outcome.status === 'rejected') ? 1 : 0);
