import type { Readable } from 'node:stream';

/** An artifact's bytes: in memory, or a stream read once while it is stored (a video need not fit in memory). */
export type ArtifactContent = Uint8Array | Readable;

/** Inclusive byte offsets within an artifact, as in an HTTP `Range` header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredArtifact {
  key: string;
  mimeType: string;
  bytes: number;
}

export interface ArtifactInfo {
  mimeType: string;
  /** Size of the whole artifact, even when only a range of it is opened. */
  bytes: number;
}

export interface OpenedArtifact extends ArtifactInfo {
  /** The whole artifact, or only the range asked for. */
  stream: Readable;
}

/**
 * Where results live. Keys are `<generation id>.<extension>` (`<generation id>-marked.<extension>` for the
 * copy with the product mark; `<generation id>-<n>` for image n of a set, 2 to 10); a key of any other shape is never looked up,
 * so a request cannot reach beyond the store's own artifacts.
 */
export interface ArtifactStore {
  save(generationId: string, content: ArtifactContent, mimeType: string): Promise<StoredArtifact>;
  /** Size and type without reading the content, so a `Range` header can be checked first. */
  stat(key: string): Promise<ArtifactInfo | null>;
  /** `range` must lie within the artifact (check it against `stat`). */
  open(key: string, range?: ByteRange): Promise<OpenedArtifact | null>;
  /** Deletes an artifact; one that is already gone is no error. */
  remove(key: string): Promise<void>;
}

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
const KEY_PATTERN = /^([a-z]+_[a-f0-9]{32})(-(?:[2-9]|10))?(-marked)?\.[a-z0-9]+$/;

/**
 * What `save` takes for image `index` (from 0) of an image set: the first is stored as a single image is,
 * the next as `<generation id>-2` to `-10`, each with its own marked copy.
 */
export function setImageOf(generationId: string, index: number): string {
  return index === 0 ? generationId : `${generationId}-${index + 1}`;
}

/** The generation a stored file belongs to; null for a key of another shape. */
export function generationIdOfKey(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

/** What `save` takes instead of a generation id for the copy of its output that carries the product mark. */
export function markedCopyOf(generationId: string): string {
  return `${generationId}-marked`;
}

/** The key a generation's result is stored under; its extension carries the type it is served as. */
export function artifactKey(generationId: string, mimeType: string): string {
  const baseMime = mimeType.split(';')[0]!.trim().toLowerCase();
  return `${generationId}.${EXTENSION_BY_MIME[baseMime] ?? 'bin'}`;
}

export function isArtifactKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function mimeTypeOfKey(key: string): string {
  return MIME_BY_EXTENSION[key.split('.').pop()!] ?? 'application/octet-stream';
}
