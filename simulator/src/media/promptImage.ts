import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';

const RGB = 2;
// "Up" suits a smooth pattern and a fixed filter skips pngjs's try-every-filter pass; level 1 keeps 1024² fast.
const FILTER_UP = 2;
const DEFLATE_LEVEL = 1;

/**
 * A PNG standing in for a generated image: a gradient with rings whose colours, angle and spacing come
 * from a hash of the prompt and seed, so the same request gives the same bytes and another seed does not.
 */
export function renderPromptImage(prompt: string, seed: number, width: number, height: number): Buffer {
  const hash = createHash('sha256').update(`${seed}\n${prompt}`).digest();
  const byte = (index: number) => hash[index] ?? 0;
  const from = [byte(0), byte(1), byte(2)] as const;
  const to = [byte(3), byte(4), byte(5)] as const;
  const angle = (byte(6) / 256) * 2 * Math.PI;
  const ringSpacing = 8 + (byte(7) % 56);
  const centreX = (byte(8) / 255) * width;
  const centreY = (byte(9) / 255) * height;

  const dirX = Math.cos(angle);
  const dirY = Math.sin(angle);
  const span = Math.abs(dirX) * width + Math.abs(dirY) * height;
  const offset = Math.min(0, dirX * width) + Math.min(0, dirY * height);

  const data = Buffer.alloc(width * height * 3);
  let index = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x * dirX + y * dirY - offset) / span;
      const ring = Math.floor(Math.hypot(x - centreX, y - centreY) / ringSpacing) % 2 === 0 ? 1 : 0.8;
      data[index++] = (from[0] + (to[0] - from[0]) * t) * ring;
      data[index++] = (from[1] + (to[1] - from[1]) * t) * ring;
      data[index++] = (from[2] + (to[2] - from[2]) * t) * ring;
    }
  }

  const png = new PNG({ width, height });
  png.data = data;
  return PNG.sync.write(png, {
    colorType: RGB,
    inputColorType: RGB,
    inputHasAlpha: false,
    filterType: FILTER_UP,
    deflateLevel: DEFLATE_LEVEL,
  });
}
