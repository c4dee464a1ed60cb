import { PRODUCT_FILE_PREFIX, type Generation } from '@mediagen/shared';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
};

/**
 * The one name a result is saved under, wherever it is downloaded from (the dashboard or the library):
 * the spec's product prefix, a timestamp (when the generation was made, so saving the same file twice
 * gives the same name) and the file's own extension. An image of a set carries its number:
 * 'mediagen-1732000000000-2.png' is image 2; a single result has none: 'mediagen-1732000000000.mp4'.
 */
export function resultFileName(generation: Generation, index = 0): string {
  const { createdAt, result, outputs = [] } = generation;
  const output = outputs[index];
  const mimeType = output !== undefined && 'mimeType' in output ? output.mimeType : result?.mimeType;
  const extension = (mimeType !== undefined && EXTENSIONS[mimeType]) || 'bin';
  const number = outputs.length > 1 ? `-${index + 1}` : '';
  return `${PRODUCT_FILE_PREFIX}-${Date.parse(createdAt)}${number}.${extension}`;
}
