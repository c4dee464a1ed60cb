/**
 * The style presets Stability documents for v1 text-to-image and v2beta Core alike. Written out here rather
 * than read from the product's code: the stand-in speaks the provider's contract, not ours.
 */
export const STYLE_PRESETS: readonly string[] = [
  '3d-model',
  'analog-film',
  'anime',
  'cinematic',
  'comic-book',
  'digital-art',
  'enhance',
  'fantasy-art',
  'isometric',
  'line-art',
  'low-poly',
  'modeling-compound',
  'neon-punk',
  'origami',
  'photographic',
  'pixel-art',
  'tile-texture',
];
