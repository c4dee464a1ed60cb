import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FileArtifactStore, newGenerationId } from '../src';
import { describeArtifactStore, failingStream } from './support/artifact-store-contract';

const root = mkdtempSync(join(tmpdir(), 'mediagen-artifacts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('makes its directory on the first save and leaves no temporary file behind', async () => {
  const directory = join(root, 'not-yet', 'made');
  const store = new FileArtifactStore(directory);
  const id = newGenerationId('speech');

  const stored = await store.save(id, new TextEncoder().encode('RIFF-audio'), 'audio/wav; codecs=1');
  const again = await store.save(newGenerationId('image'), new Uint8Array([1, 2, 3]), 'image/png');

  expect(stored).toEqual({ key: `${id}.wav`, mimeType: 'audio/wav', bytes: 10 });
  expect(again.key).toMatch(/\.png$/);
  expect(readdirSync(directory).sort()).toEqual([again.key, stored.key].sort());
  const opened = await store.open(stored.key);
  expect(opened).toMatchObject({ mimeType: 'audio/wav', bytes: 10 });
  expect(await text(opened!.stream)).toBe('RIFF-audio');
});

it('opens nothing outside its own keys', async () => {
  const store = new FileArtifactStore(root);
  expect(await store.open('../etc/passwd')).toBeNull();
  expect(await store.open(`${newGenerationId('image')}.png`)).toBeNull();
});

it('leaves no temporary file behind when a stream fails half-way', async () => {
  const directory = mkdtempSync(join(root, 'failing-'));
  const store = new FileArtifactStore(directory);
  await expect(store.save(newGenerationId('video'), failingStream(), 'video/mp4')).rejects.toThrow('connection reset');
  expect(readdirSync(directory)).toEqual([]);
});

describeArtifactStore('FileArtifactStore', () => new FileArtifactStore(join(root, 'contract')));
