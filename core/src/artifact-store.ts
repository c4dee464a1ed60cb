import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

const EXTENSION_BY_MIME: Record<string, string> = {
  'image/png': 'png',
  'video/mp4': 'mp4',
  'application/mxf': 'mxf',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
  'audio/opus': 'opus',
};
/** The first MIME type listed for an extension is the one it is served as (audio/wav, not audio/x-wav). */
const MIME_BY_EXTENSION: Record<string, string> = {};
for (const [mime, extension] of Object.entries(EXTENSION_BY_MIME)) MIME_BY_EXTENSION[extension] ??= mime;
const KEY_PATTERN = /^[a-z]+_[a-f0-9]{32}\.[a-z0-9]+$/;

export interface StoredArtifact {
  key: string;
  mimeType: string;
  bytes: number;
}

export interface ArtifactStore {
  save(generationId: string, data: Uint8Array, mimeType: string): Promise<StoredArtifact>;
  open(key: string): Promise<{ stream: Readable; mimeType: string; bytes: number } | null>;
  /** Deletes an artifact; one that is already gone is no error. */
  remove(key: string): Promise<void>;
}

/** Artifacts as files under a directory that server and worker share (a volume in compose). */
export class FileArtifactStore implements ArtifactStore {
  constructor(private readonly directory: string) {}

  async save(generationId: string, data: Uint8Array, mimeType: string): Promise<StoredArtifact> {
    const baseMime = mimeType.split(';')[0]!.trim().toLowerCase();
    const key = `${generationId}.${EXTENSION_BY_MIME[baseMime] ?? 'bin'}`;
    // Written under a temporary name and renamed, so a reader never sees half a file.
    const temporaryPath = join(this.directory, `.${key}.${process.pid}.tmp`);
    await writeFile(temporaryPath, data).catch(async (error: NodeJS.ErrnoException) => {
      // The directory is made the first time it is missing, not checked on every save.
      if (error.code !== 'ENOENT') throw error;
      await mkdir(this.directory, { recursive: true });
      await writeFile(temporaryPath, data);
    });
    await rename(temporaryPath, join(this.directory, key));
    return {
      key,
      mimeType: MIME_BY_EXTENSION[key.split('.').pop()!] ?? 'application/octet-stream',
      bytes: data.byteLength,
    };
  }

  async open(key: string) {
    if (!KEY_PATTERN.test(key)) return null;
    const path = join(this.directory, key);
    const info = await stat(path).catch(() => null);
    if (info === null || !info.isFile()) return null;
    const extension = key.split('.').pop()!;
    return {
      stream: createReadStream(path),
      mimeType: MIME_BY_EXTENSION[extension] ?? 'application/octet-stream',
      bytes: info.size,
    };
  }

  async remove(key: string): Promise<void> {
    if (!KEY_PATTERN.test(key)) return;
    await rm(join(this.directory, key), { force: true });
  }
}
