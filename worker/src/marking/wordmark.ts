/**
 * The product's name as outlines, so the mark needs no installed font and reads the same on every
 * machine (librsvg would otherwise fall back to whatever font the host has, or none).
 *
 * Made once from DejaVu Sans Bold (free to embed and modify under the Bitstream Vera licence) with
 * fontTools: each glyph of "MediaGen" drawn through a `TransformPen` (scale 24/2048, y flipped, placed at
 * the font's advance widths plus kerning) into an `SVGPathPen`, coordinates rounded to 0.1 px. Units are
 * pixels with the cap line at y = 0 and the baseline at y = 17.5. Kept letter by letter so a test can
 * check the outlines spell the name.
 */
export const WORDMARK = {
  text: 'MediaGen',
  /** Advance width of the whole word, in pixels. */
  width: 134.8,
  baseline: 17.5,
  glyphs: [
    { letter: 'M', path: 'M2.2 0H7.9L11.9 9.4L15.9 0H21.7V17.5H17.4V4.7L13.4 14.1H10.5L6.5 4.7V17.5H2.2Z' },
    {
      letter: 'e',
      path: 'M39 10.9V12.1H29.2Q29.3 13.6 30.3 14.3Q31.2 15 32.8 15Q34.1 15 35.5 14.7Q36.9 14.3 38.4 13.5V16.7Q36.9 17.3 35.4 17.5Q33.9 17.8 32.4 17.8Q28.9 17.8 26.9 16Q24.9 14.2 24.9 10.9Q24.9 7.7 26.9 5.9Q28.8 4.1 32.2 4.1Q35.3 4.1 37.1 5.9Q39 7.8 39 10.9ZM34.7 9.5Q34.7 8.3 34 7.6Q33.3 6.8 32.2 6.8Q30.9 6.8 30.2 7.5Q29.4 8.2 29.2 9.5Z',
    },
    {
      letter: 'd',
      path: 'M51.1 6.3V-0.7H55.3V17.5H51.1V15.6Q50.2 16.8 49.2 17.3Q48.2 17.8 46.8 17.8Q44.4 17.8 42.8 15.9Q41.2 14 41.2 10.9Q41.2 7.9 42.8 6Q44.4 4.1 46.8 4.1Q48.1 4.1 49.2 4.6Q50.2 5.1 51.1 6.3ZM48.3 14.8Q49.7 14.8 50.4 13.8Q51.1 12.8 51.1 10.9Q51.1 9.1 50.4 8.1Q49.7 7.1 48.3 7.1Q47 7.1 46.3 8.1Q45.6 9.1 45.6 10.9Q45.6 12.8 46.3 13.8Q47 14.8 48.3 14.8Z',
    },
    { letter: 'i', path: 'M59.4 4.4H63.6V17.5H59.4ZM59.4 -0.7H63.6V2.7H59.4Z' },
    {
      letter: 'a',
      path: 'M73.5 11.6Q72.2 11.6 71.5 12Q70.8 12.5 70.8 13.3Q70.8 14.1 71.4 14.6Q71.9 15 72.8 15Q74 15 74.8 14.2Q75.6 13.3 75.6 12.1V11.6ZM79.9 10V17.5H75.6V15.6Q74.8 16.7 73.7 17.3Q72.7 17.8 71.2 17.8Q69.1 17.8 67.9 16.6Q66.6 15.5 66.6 13.6Q66.6 11.2 68.2 10.2Q69.8 9.1 73.2 9.1H75.6V8.8Q75.6 7.8 74.9 7.3Q74.1 6.8 72.4 6.8Q71.1 6.8 69.9 7.1Q68.7 7.4 67.7 7.9V4.7Q69.1 4.4 70.5 4.2Q71.8 4.1 73.2 4.1Q76.7 4.1 78.3 5.5Q79.9 6.9 79.9 10Z',
    },
    {
      letter: 'G',
      path: 'M99.7 16.2Q98 17 96.2 17.4Q94.4 17.8 92.4 17.8Q88.1 17.8 85.5 15.4Q83 12.9 83 8.8Q83 4.5 85.6 2.1Q88.2 -0.3 92.7 -0.3Q94.4 -0.3 96 0Q97.6 0.3 99 1V4.6Q97.6 3.8 96.1 3.4Q94.7 3 93.2 3Q90.5 3 89.1 4.5Q87.6 6 87.6 8.8Q87.6 11.5 89 13.1Q90.4 14.6 93 14.6Q93.7 14.6 94.3 14.5Q94.9 14.4 95.4 14.2V10.8H92.7V7.8H99.7Z',
    },
    {
      letter: 'e',
      path: 'M116.6 10.9V12.1H106.8Q106.9 13.6 107.8 14.3Q108.8 15 110.4 15Q111.7 15 113.1 14.7Q114.5 14.3 116 13.5V16.7Q114.5 17.3 113 17.5Q111.5 17.8 110 17.8Q106.4 17.8 104.5 16Q102.5 14.2 102.5 10.9Q102.5 7.7 104.4 5.9Q106.4 4.1 109.8 4.1Q112.9 4.1 114.7 5.9Q116.6 7.8 116.6 10.9ZM112.3 9.5Q112.3 8.3 111.6 7.6Q110.9 6.8 109.7 6.8Q108.5 6.8 107.8 7.5Q107 8.2 106.8 9.5Z',
    },
    {
      letter: 'n',
      path: 'M132.9 9.5V17.5H128.7V16.2V11.4Q128.7 9.7 128.7 9Q128.6 8.4 128.4 8.1Q128.1 7.7 127.7 7.4Q127.3 7.2 126.8 7.2Q125.4 7.2 124.7 8.2Q123.9 9.2 123.9 11V17.5H119.8V4.4H123.9V6.3Q124.9 5.1 126 4.6Q127 4.1 128.3 4.1Q130.6 4.1 131.8 5.4Q132.9 6.8 132.9 9.5Z',
    },
  ],
} as const;
