import sharp from 'sharp';
import { aiContentXmp } from './ai-content-marks';
import { withXmpChunk } from './png-xmp';
import { productMarkPixels } from './product-mark';

/**
 * A PNG as it is kept: the provider's file byte for byte with the AI-content XMP added (every plan), and
 * a copy with the product mark over its pixels (served while the owner's plan has the watermark).
 */
export async function markImage(png: Uint8Array): Promise<{ clean: Buffer; marked: Buffer }> {
  const { width, height, hasAlpha } = await sharp(png).metadata();
  if (width === undefined || height === undefined) throw new Error('the image has no size');
  const xmp = aiContentXmp();
  const mark = await productMarkPixels(width, height);
  const composited = sharp(png).composite([{ input: mark.data, raw: mark.info }]);
  // The mark's layer is RGBA; an opaque picture stays opaque, and a third fewer channels to encode.
  const marked = await (hasAlpha ? composited : composited.removeAlpha()).png().toBuffer();
  return { clean: withXmpChunk(png, xmp), marked: withXmpChunk(marked, xmp) };
}
