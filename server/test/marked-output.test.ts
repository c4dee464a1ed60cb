import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import exifr from 'exifr';
import { parseBuffer } from 'music-metadata';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation, GenerationRequestInput, PlanId } from '@mediagen/shared';
import { bearer, type TestApp } from './support/app';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import { imageRequest, speechRequest, submitCompleted, videoRequest } from './support/requests';
import { createAdminUser, createTestUser, type TestUser } from './support/users';

/**
 * What creators download, through the whole pipeline (API, real workers, simulator): on Free the file
 * with the product mark, on a paid plan the provider's original, both saying they are AI-made; the same
 * link switches with the plan. Read back with libraries: sharp, exifr, music-metadata, ffprobe.
 */
const DIGITAL_SOURCE_TYPE = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
const run = promisify(execFile);
let pipeline: TestPipeline;
let server: TestApp;
let admin: TestUser;
let dir: string;

beforeAll(async () => {
  pipeline = await startTestPipeline({ simulator: { latencyMs: 0, videoQueueingMs: 50, videoProcessingMs: 100 } });
  ({ server } = pipeline);
  admin = await createAdminUser();
  dir = await mkdtemp(join(tmpdir(), 'mediagen-marked-'));
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await pipeline.close();
}, 60_000);

const completed = (user: TestUser, request: GenerationRequestInput, timeoutMs = 30_000) =>
  submitCompleted(server.origin, user, request, timeoutMs);

const download = async (generation: Generation) =>
  Buffer.from(await (await fetch(generation.result!.url)).arrayBuffer());

async function moveTo(user: TestUser, plan: PlanId): Promise<void> {
  const response = await fetch(`${server.origin}/admin/api/users/${user.uid}/plan`, {
    method: 'PUT',
    headers: { ...bearer(admin), 'content-type': 'application/json' },
    body: JSON.stringify({ plan }),
  });
  expect(response.status).toBe(200);
}

describe('served output by plan', () => {
  it('an image: marked on Free, the original after an upgrade (only the pixels under the mark differ), AI-tagged in both', async () => {
    const user = await createTestUser();
    const generation = await completed(user, imageRequest('a red kite over dunes'));
    const free = await download(generation);
    await moveTo(user, 'pro');
    const paid = await download(generation);

    const pixels = (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer();
    const [marked, original] = [await pixels(free), await pixels(paid)];
    expect(marked.length).toBe(original.length);
    let differing = 0;
    for (let index = 0; index < marked.length; index += 1) if (marked[index] !== original[index]) differing += 1;
    expect(differing / marked.length).toBeGreaterThan(0.02);
    expect(differing / marked.length).toBeLessThan(0.6);
    for (const file of [free, paid]) {
      const xmp = (await exifr.parse(file, { xmp: true })) as { DigitalSourceType?: string };
      expect(xmp.DigitalSourceType).toBe(DIGITAL_SOURCE_TYPE);
    }
    await moveTo(user, 'free');
    expect(await download(generation)).toEqual(free);
  });

  it('speech: the chime and the tags on Free, the tags alone on Pro', async () => {
    const user = await createTestUser();
    const generation = await completed(user, speechRequest('A short line to read.'));
    const free = await download(generation);
    await moveTo(user, 'pro');
    const paid = await download(generation);
    const read = (file: Buffer) => parseBuffer(file, { mimeType: generation.result!.mimeType });
    const [freeTags, paidTags] = [await read(free), await read(paid)];
    expect((freeTags.format.duration ?? 0) - (paidTags.format.duration ?? 0)).toBeGreaterThan(0.4);
    for (const metadata of [freeTags, paidTags]) {
      const frames = Object.values(metadata.native).flat();
      // WAV (what the simulator speaks) keeps tags in RIFF INFO: the comment names the source type.
      expect(frames.some((frame) => String(frame.value).includes(DIGITAL_SOURCE_TYPE))).toBe(true);
    }
  });

  it('a video: AI-tagged in both, and the free one differs frame by frame', async () => {
    const user = await createTestUser();
    const generation = await completed(user, videoRequest('waves on a beach'), 60_000);
    const files = { free: join(dir, 'free.mp4'), paid: join(dir, 'paid.mp4') };
    await writeFile(files.free, await download(generation));
    await moveTo(user, 'pro');
    await writeFile(files.paid, await download(generation));
    for (const file of Object.values(files)) {
      const { stdout } = await run('ffprobe', ['-v', 'error', '-show_format', '-of', 'json', file]);
      const tags = (JSON.parse(stdout) as { format: { tags?: Record<string, string> } }).format.tags;
      expect(tags?.digital_source_type).toBe(DIGITAL_SOURCE_TYPE);
    }
    const frame = async (file: string) => {
      const { stdout } = await run(
        'ffmpeg',
        ['-v', 'error', '-ss', '0.2', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
        { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      );
      return stdout;
    };
    expect((await frame(files.free)).equals(await frame(files.paid))).toBe(false);
  }, 90_000);
});
