import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  artifactKey,
  isArtifactKey,
  mimeTypeOfKey,
  type ArtifactContent,
  type ArtifactStore,
  type ByteRange,
  type OpenedArtifact,
  type StoredArtifact,
} from './artifact-store';

/** Artifacts as files under one directory: for a single machine, or hosts that share a volume. */
export class FileArtifactStore implements ArtifactStore {
  constructor(private readonly directory: string) {}

  async save(generationId: string, content: ArtifactContent, mimeType: string): Promise<StoredArtifact> {
    const key = artifactKey(generationId, mimeType);
    // Written under a temporary name and renamed, so a reader never sees half a file.
    const temporaryPath = join(this.directory, `.${key}.${process.pid}.tmp`);
    try {
      // writeFile opens the file before reading any content, so a stream is still unread when it is retried.
      await writeFile(temporaryPath, content).catch(async (error: NodeJS.ErrnoException) => {
        // The directory is made the first time it is missing, not checked on every save.
        if (error.code !== 'ENOENT') throw error;
        await mkdir(this.directory, { recursive: true });
        await writeFile(temporaryPath, content);
      });
      const { size } = await stat(temporaryPath);
      await rename(temporaryPath, join(this.directory, key));
      return { key, mimeType: mimeTypeOfKey(key), bytes: size };
    } catch (error) {
      // A stream can fail half-way (a download cut off); its partial file must not stay behind.
      await rm(temporaryPath, { force: true });
      throw error;
    }
  }

  async stat(key: string) {
    const size = await this.fileSize(key);
    return size === null ? null : { mimeType: mimeTypeOfKey(key), bytes: size };
  }

  async open(key: string, range?: ByteRange): Promise<OpenedArtifact | null> {
    const size = await this.fileSize(key);
    if (size === null) return null;
    return {
      stream: createReadStream(join(this.directory, key), range),
      mimeType: mimeTypeOfKey(key),
      bytes: size,
    };
  }

  async remove(key: string): Promise<void> {
    if (!isArtifactKey(key)) return;
    await rm(join(this.directory, key), { force: true });
  }

  private async fileSize(key: string): Promise<number | null> {
    if (!isArtifactKey(key)) return null;
    const info = await stat(join(this.directory, key)).catch(() => null);
    return info?.isFile() ? info.size : null;
  }
}
