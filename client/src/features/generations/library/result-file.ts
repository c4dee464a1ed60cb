import type { Generation } from '@mediagen/shared';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
};

/** 'mediagen-video-1732000000000.mp4': the kind and when it was made, with the file type's extension. */
export function resultFileName({ kind, createdAt, result }: Generation): string {
  const extension = (result && EXTENSIONS[result.mimeType]) ?? 'bin';
  return `mediagen-${kind}-${Date.parse(createdAt)}.${extension}`;
}
