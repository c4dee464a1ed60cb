import sharp from 'sharp';
import { WORDMARK } from './wordmark';

/** One tile of the mark; tiled over the whole picture, so no crop of a corner or an edge removes it. */
export const TILE = { width: 260, height: 180 } as const;

/** The outline under every light shape: dark at low opacity, so the mark shows on light and dark pictures. */
const DARK_OUTLINE = 'stroke="#0f172a" stroke-opacity="0.45"';

/** A framed play sign and a spark, 120 × 72 px from the group's origin (the spark reaches 14 px above). */
const ICON = `<g fill="none" stroke-linejoin="round">
      <rect x="0" y="0" width="120" height="72" rx="16" ${DARK_OUTLINE} stroke-width="9"/>
      <rect x="0" y="0" width="120" height="72" rx="16" stroke="#ffffff" stroke-opacity="0.7" stroke-width="4"/>
    </g>
    <path d="M46 18 L82 36 L46 54 Z" fill="#ffffff" fill-opacity="0.7" ${DARK_OUTLINE} stroke-width="3"/>
    <path d="M104 -14 L108 -4 L118 0 L108 4 L104 14 L100 4 L90 0 L100 -4 Z" fill="#ffffff" fill-opacity="0.75" ${DARK_OUTLINE} stroke-width="2"/>`;

/** Where the name sits: centred under the frame, its cap line 12 px below it. */
const WORD_ORIGIN = { x: 60 - WORDMARK.width / 2, y: 84 };
const WORD_PATH = WORDMARK.glyphs.map((glyph) => glyph.path).join('');
/** The outline is drawn first and the fill over it, so the dark edge rings the letters without thinning them. */
const WORD = `<g transform="translate(${WORD_ORIGIN.x} ${WORD_ORIGIN.y})" stroke-linejoin="round">
      <path d="${WORD_PATH}" fill="none" ${DARK_OUTLINE} stroke-width="3"/>
      <path d="${WORD_PATH}" fill="#ffffff" fill-opacity="0.75"/>
    </g>`;

/** The middle of the icon and name together (spark top to baseline), put at the tile's middle. */
const GROUP_CENTRE = { x: 60, y: (-14 + WORD_ORIGIN.y + WORDMARK.baseline) / 2 };

/**
 * One tile: the product's icon with its name under it, as vector shapes and letter outlines (no font
 * needed, the same on every machine), dark-outlined and light-filled at low opacity so it shows on light
 * and dark pictures, and tilted. `parts` leaves one out, for tests that compare against it.
 */
export function productMarkTileSvg(parts: { icon: boolean; word: boolean } = { icon: true, word: true }): Buffer {
  const centre = { x: TILE.width / 2, y: TILE.height / 2 };
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE.width}" height="${TILE.height}">
  <g transform="rotate(-24 ${centre.x} ${centre.y}) translate(${centre.x - GROUP_CENTRE.x} ${centre.y - GROUP_CENTRE.y})">
    ${parts.icon ? ICON : ''}
    ${parts.word ? WORD : ''}
  </g>
</svg>`);
}

const TILE_SVG = productMarkTileSvg();

interface MarkPixels {
  data: Buffer;
  info: { width: number; height: number; channels: 4 };
}

/**
 * Rendering the tiled SVG costs more than putting it on a picture, and outputs come in a handful of
 * sizes: the last few layers are kept as raw pixels (a 1024² layer is 4 MiB).
 */
const CACHED_LAYERS = 8;
const layers = new Map<string, Promise<MarkPixels>>();

/** The mark tiled over a transparent canvas of the given size, as raw RGBA; a canvas smaller than a tile gets part of one. */
export function productMarkPixels(width: number, height: number): Promise<MarkPixels> {
  const key = `${width}x${height}`;
  const cached = layers.get(key);
  if (cached !== undefined) {
    // Most recently used last, so the oldest goes first.
    layers.delete(key);
    layers.set(key, cached);
    return cached;
  }
  const canvas = { width: Math.max(width, TILE.width), height: Math.max(height, TILE.height) };
  const rendered = sharp({ create: { ...canvas, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    // Tiles laid from the top left corner, so the first tile sits at a known place (the tests read it there).
    .composite([{ input: TILE_SVG, tile: true, gravity: 'northwest' }])
    .png()
    .toBuffer()
    .then((layer) =>
      sharp(layer)
        .extract({ left: 0, top: 0, width, height })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true }),
    )
    .then(({ data }) => ({ data, info: { width, height, channels: 4 as const } }));
  rendered.catch(() => layers.delete(key));
  layers.set(key, rendered);
  if (layers.size > CACHED_LAYERS) layers.delete(layers.keys().next().value!);
  return rendered;
}

/** The same layer as a PNG file, for ffmpeg. */
export async function productMarkLayer(width: number, height: number): Promise<Buffer> {
  const { data, info } = await productMarkPixels(width, height);
  return sharp(data, { raw: info }).png().toBuffer();
}
