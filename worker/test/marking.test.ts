import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import exifr from 'exifr';
import { parseBuffer } from 'music-metadata';
import sharp, { type Region } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../src/marking/ffmpeg';
import { AI_CONTENT_STATEMENT, DIGITAL_SOURCE_TYPE, markOutput } from '../src/marking';
import { productMarkPixels, productMarkTileSvg, TILE } from '../src/marking/product-mark';
import { WORDMARK } from '../src/marking/wordmark';

/**
 * The marks, read back with libraries as a checker would: pixels with sharp, XMP with exifr, tags with
 * music-metadata, and streams and container tags with ffprobe (Debian's; the worker's own ffmpeg ships
 * without it).
 */
const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagen-marking-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A picture with detail everywhere, so a mark anywhere changes pixels. */
function picture(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = ((x + y) * 7) % 256;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const rawPixels = (png: Uint8Array, region?: Region) =>
  (region === undefined ? sharp(png) : sharp(png).extract(region)).removeAlpha().raw().toBuffer();

/** Share of the bytes of two equal-sized pixel buffers that differ. */
function differingShare(a: Buffer, b: Buffer): number {
  let differing = 0;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) differing += 1;
  return differing / a.length;
}

/** Alpha of one tile drawn with only some of its parts, one byte a pixel. */
const tileAlpha = (parts: { icon: boolean; word: boolean }) =>
  sharp(productMarkTileSvg(parts)).ensureAlpha().extractChannel(3).raw().toBuffer();

/** Pixels of the first tile (at the picture's top left) whose alpha in the given layer passes `keep`. */
function tilePixels(alpha: Buffer, keep: (alpha: number) => boolean): { x: number; y: number }[] {
  const pixels: { x: number; y: number }[] = [];
  for (let index = 0; index < alpha.length; index += 1) {
    if (keep(alpha[index]!)) pixels.push({ x: index % TILE.width, y: Math.floor(index / TILE.width) });
  }
  return pixels;
}

/** Mean difference of the RGB channels of two pictures `width` pixels wide, over the given pixels. */
function meanDifferenceAt(a: Buffer, b: Buffer, width: number, pixels: { x: number; y: number }[]): number {
  let total = 0;
  for (const { x, y } of pixels) {
    for (let channel = 0; channel < 3; channel += 1) {
      const offset = (y * width + x) * 3 + channel;
      total += Math.abs(a[offset]! - b[offset]!);
    }
  }
  return total / (pixels.length * 3);
}

/**
 * The name shows where its letters are solid: they move the picture far more than the encoder moves
 * the pixels no part of the mark touches. Fails if the mark loses its name.
 */
async function expectNameShown(source: Buffer, marked: Buffer, width: number) {
  const letters = tilePixels(await tileAlpha({ icon: false, word: true }), (alpha) => alpha > 150);
  const untouched = tilePixels(await tileAlpha({ icon: true, word: true }), (alpha) => alpha === 0);
  expect(meanDifferenceAt(source, marked, width, letters)).toBeGreaterThan(40);
  expect(meanDifferenceAt(source, marked, width, untouched)).toBeLessThan(8);
}

async function probe(file: string): Promise<{ format: { tags?: Record<string, string>; duration: string } }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_format', '-of', 'json', file]);
  return JSON.parse(stdout) as { format: { tags?: Record<string, string>; duration: string } };
}

describe('images', () => {
  it('keep the provider pixels in the clean copy; the marked copy differs only where the mark is, in every corner too', async () => {
    const original = await picture(512, 384);
    const { clean, marked } = await markOutput('image', original, 'png');

    // The clean copy is the provider's file plus one XMP chunk after the header, and nothing else.
    const afterHeader = 33;
    const chunkLength = clean.readUInt32BE(afterHeader) + 12;
    expect(clean.toString('ascii', afterHeader + 4, afterHeader + 8)).toBe('iTXt');
    expect(Buffer.concat([clean.subarray(0, afterHeader), clean.subarray(afterHeader + chunkLength)])).toEqual(
      original,
    );
    const [before, after] = [await rawPixels(original), await rawPixels(marked)];
    const changed = differingShare(before, after);
    // A mark, not a new picture: some of it changes, most of it does not.
    expect(changed).toBeGreaterThan(0.03);
    expect(changed).toBeLessThan(0.6);
    await expectNameShown(before, after, 512);
    // Cropping any corner keeps some of the mark.
    const corner = { width: 160, height: 120 };
    for (const [left, top] of [
      [0, 0],
      [512 - 160, 0],
      [0, 384 - 120],
      [512 - 160, 384 - 120],
    ] as const) {
      const region = { ...corner, left, top };
      expect(differingShare(await rawPixels(original, region), await rawPixels(marked, region))).toBeGreaterThan(0.01);
    }
  });

  it('keep their transparency, or their lack of it, in the marked copy', async () => {
    const opaque = await picture(256, 192);
    const translucent = await sharp(opaque).ensureAlpha(0.5).png().toBuffer();
    for (const [original, channels] of [
      [opaque, 3],
      [translucent, 4],
    ] as const) {
      const { marked } = await markOutput('image', original, 'png');
      expect((await sharp(marked).metadata()).channels).toBe(channels);
    }
  });

  it('carry the IPTC digital source type trainedAlgorithmicMedia in XMP, clean and marked', async () => {
    const { clean, marked } = await markOutput('image', await picture(128, 128), 'png');
    for (const file of [clean, marked]) {
      const xmp = (await exifr.parse(Buffer.from(file), { xmp: true })) as Record<string, unknown>;
      expect(xmp.DigitalSourceType).toBe(DIGITAL_SOURCE_TYPE);
      expect(xmp.CreatorTool).toBe('MediaGen');
    }
  });
});

describe('the product mark', () => {
  it('names the product: the letters of MediaGen, drawn in every tile', async () => {
    expect(WORDMARK.glyphs.map((glyph) => glyph.letter).join('')).toBe('MediaGen');
    const word = await tileAlpha({ icon: false, word: true });
    const letters = tilePixels(word, (alpha) => alpha > 150);
    // Solid letters about 17 px tall across about 130 px, not a speck.
    expect(letters.length).toBeGreaterThan(800);
    // The layer put on pictures and videos carries every one of those pixels, in each tile it repeats.
    const layer = await productMarkPixels(TILE.width * 2, TILE.height);
    for (const tile of [0, 1]) {
      const missing = letters.filter(({ x, y }) => {
        const offset = (y * TILE.width * 2 + x + tile * TILE.width) * 4 + 3;
        return layer.data[offset]! < word[y * TILE.width + x]! - 2;
      });
      expect(missing).toEqual([]);
    }
  });
});

describe('videos', () => {
  it('keep the provider streams in the clean copy, show the mark in every frame of the marked one, and say they are AI-made', async () => {
    const input = join(dir, 'input.mp4');
    await runFfmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=320x240:rate=10:duration=1',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        input,
      ],
      60_000,
    );
    const { clean, marked } = await markOutput('video', await readFile(input), 'mp4');
    const files = { clean: join(dir, 'clean.mp4'), marked: join(dir, 'marked.mp4') };
    await Promise.all([writeFile(files.clean, clean), writeFile(files.marked, marked)]);

    for (const file of Object.values(files)) {
      const { format } = await probe(file);
      expect(format.tags?.comment).toBe(AI_CONTENT_STATEMENT);
      expect(format.tags?.digital_source_type).toBe(DIGITAL_SOURCE_TYPE);
      expect(Number(format.duration)).toBeCloseTo(1, 0);
    }
    const frame = async (file: string, name: string) => {
      const png = join(dir, name);
      await runFfmpeg(['-ss', '0.5', '-i', file, '-frames:v', '1', png], 30_000);
      return rawPixels(await readFile(png));
    };
    const [source, kept, withMark] = await Promise.all([
      frame(input, 'source.png'),
      frame(files.clean, 'clean.png'),
      frame(files.marked, 'marked.png'),
    ]);
    expect(kept).toEqual(source);
    expect(differingShare(source, withMark)).toBeGreaterThan(0.05);
    await expectNameShown(source, withMark, 320);
  });
});

describe('speech', () => {
  it('carries the AI-content tags; the marked copy starts with the half-second chime', async () => {
    const input = join(dir, 'voice.mp3');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=2', '-c:a', 'libmp3lame', input], 30_000);
    const { clean, marked } = await markOutput('speech', await readFile(input), 'mp3');
    for (const file of [clean, marked]) {
      // ID3v2.4 user text frames (TXXX), as the worker's ffmpeg writes them.
      const frames = (await parseBuffer(file, { mimeType: 'audio/mpeg' })).native['ID3v2.4'] ?? [];
      expect(frames).toContainEqual({ id: 'TXXX:comment', value: AI_CONTENT_STATEMENT });
      expect(frames).toContainEqual({ id: 'TXXX:digital_source_type', value: DIGITAL_SOURCE_TYPE });
    }
    const duration = async (file: Buffer) => (await parseBuffer(file, { mimeType: 'audio/mpeg' })).format.duration ?? 0;
    expect(await duration(clean)).toBeCloseTo(2, 1);
    expect((await duration(marked)) - (await duration(clean))).toBeGreaterThan(0.4);
  });

  it('refuses a format it cannot write back, clearly', async () => {
    await expect(markOutput('speech', Buffer.from('x'), 'xyz')).rejects.toThrow('no way to mark .xyz audio');
  });
});
