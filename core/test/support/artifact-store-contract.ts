import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { artifactKey, newGenerationId, type ArtifactStore } from '../../src';

/** `megabytes` MiB of varied bytes in 1 MiB chunks, made as they are read, and their SHA-256 once read. */
export function generatedVideo(megabytes: number): { stream: Readable; digest(): string; bytes: number } {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let index = 0; index < megabytes; index += 1) {
      const chunk = Buffer.alloc(1024 * 1024, index % 251);
      chunk.writeUInt32BE(index, 0);
      hash.update(chunk);
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), digest: () => hash.digest('hex'), bytes: megabytes * 1024 * 1024 };
}

/** A stream that gives some bytes and then fails, as a download cut off half-way does. */
export function failingStream(): Readable {
  async function* chunks() {
    yield Buffer.alloc(64 * 1024, 1);
    throw new Error('connection reset');
  }
  return Readable.from(chunks());
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What every ArtifactStore does, whatever it keeps artifacts in. */
export function describeArtifactStore(name: string, store: () => ArtifactStore): void {
  describe(`${name}: the ArtifactStore contract`, () => {
    it('saves bytes under a key named after the generation and its type, and opens them whole', async () => {
      const id = newGenerationId('speech');
      const stored = await store().save(id, new TextEncoder().encode('RIFF-audio'), 'audio/x-wav; codecs=1');
      expect(stored).toEqual({ key: `${id}.wav`, mimeType: 'audio/wav', bytes: 10 });
      expect(await store().stat(stored.key)).toEqual({ mimeType: 'audio/wav', bytes: 10 });
      const opened = await store().open(stored.key);
      expect(opened).toMatchObject({ mimeType: 'audio/wav', bytes: 10 });
      expect(await text(opened!.stream)).toBe('RIFF-audio');
    });

    it('saves a stream of several MiB intact, counting its bytes as they pass', async () => {
      const id = newGenerationId('video');
      const video = generatedVideo(20);
      const stored = await store().save(id, video.stream, 'video/mp4');
      expect(stored).toEqual({ key: `${id}.mp4`, mimeType: 'video/mp4', bytes: video.bytes });
      const opened = await store().open(stored.key);
      expect(opened?.bytes).toBe(video.bytes);
      expect(sha256(await buffer(opened!.stream))).toBe(video.digest());
    });

    it('opens a byte range, giving the whole size alongside it', async () => {
      const bytes = Uint8Array.from({ length: 4096 }, (_, index) => index % 251);
      const { key } = await store().save(newGenerationId('image'), bytes, 'image/png');
      // Safari's first probe of a video is bytes=0-1. (Not 0-0: s3rver, the test server, reads it as the
      // whole object, which S3 does not.)
      for (const [start, end] of [
        [100, 199],
        [0, 1],
        [4095, 4095],
      ] as const) {
        const opened = await store().open(key, { start, end });
        expect(opened).toMatchObject({ mimeType: 'image/png', bytes: 4096 });
        expect(new Uint8Array(await buffer(opened!.stream))).toEqual(bytes.slice(start, end + 1));
      }
    });

    it('finds nothing under a key it never stored', async () => {
      const key = `${newGenerationId('image')}.png`;
      expect(await store().stat(key)).toBeNull();
      expect(await store().open(key)).toBeNull();
      expect(await store().open(key, { start: 0, end: 9 })).toBeNull();
    });

    it('looks up nothing but its own keys', async () => {
      const { key } = await store().save(newGenerationId('image'), new Uint8Array([1, 2, 3]), 'image/png');
      for (const stray of ['../etc/passwd', `../${key}`, `sub/${key}`, key.toUpperCase(), `${key}/`, '']) {
        expect(await store().stat(stray)).toBeNull();
        expect(await store().open(stray)).toBeNull();
        await store().remove(stray);
      }
      expect(await store().stat(key)).not.toBeNull();
    });

    it('stores a type it does not know as .bin, served as application/octet-stream', async () => {
      const stored = await store().save(newGenerationId('image'), new Uint8Array([7]), 'image/x-unknown');
      expect(stored.key).toMatch(/\.bin$/);
      expect(stored.mimeType).toBe('application/octet-stream');
      expect(await store().stat(stored.key)).toEqual({ mimeType: 'application/octet-stream', bytes: 1 });
    });

    it('removes an artifact, and removing one that is gone is no error', async () => {
      const { key } = await store().save(newGenerationId('image'), new Uint8Array([1, 2, 3]), 'image/png');
      await store().remove(key);
      expect(await store().open(key)).toBeNull();
      await expect(store().remove(key)).resolves.toBeUndefined();
    });

    it('keeps nothing of a stream that fails half-way, and passes its error on', async () => {
      const id = newGenerationId('video');
      await expect(store().save(id, failingStream(), 'video/mp4')).rejects.toThrow('connection reset');
      expect(await store().stat(artifactKey(id, 'video/mp4'))).toBeNull();
    });
  });
}
