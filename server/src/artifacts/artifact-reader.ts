import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileArtifactStore, type ArtifactStore } from '@mediagen/core';

export interface OpenedArtifact {
  mimeType: string;
  /** Size of the whole artifact. */
  bytes: number;
  /** The whole file, or only `range` when one was asked for. */
  stream: Readable;
}

export interface ArtifactReader {
  open(key: string, range?: { start: number; end: number }): Promise<OpenedArtifact | null>;
  /** Size and type without opening a stream, so a Range header can be checked first. */
  stat(key: string): Promise<{ mimeType: string; bytes: number } | null>;
}

/**
 * Reads artifacts through `FileArtifactStore` (which validates the key and knows the types). The store
 * opens whole files only; seeking a <video> needs byte ranges, so a range is read from the same file
 * directly. Proposed for `@mediagen/core`: `ArtifactStore.open(key, range?)`, which would remove this.
 */
export class FileArtifactReader implements ArtifactReader {
  private readonly store: ArtifactStore;

  constructor(private readonly directory: string) {
    this.store = new FileArtifactStore(directory);
  }

  async stat(key: string) {
    const opened = await this.store.open(key);
    if (opened === null) return null;
    opened.stream.destroy();
    return { mimeType: opened.mimeType, bytes: opened.bytes };
  }

  async open(key: string, range?: { start: number; end: number }): Promise<OpenedArtifact | null> {
    const opened = await this.store.open(key);
    if (opened === null) return null;
    if (range === undefined) return opened;
    opened.stream.destroy();
    return {
      mimeType: opened.mimeType,
      bytes: opened.bytes,
      stream: createReadStream(join(this.directory, key), { start: range.start, end: range.end }),
    };
  }
}
