/**
 * Characters that show nothing: controls (Cc), format characters (Cf: zero-width spaces and joiners,
 * the soft hyphen, bidi controls, the byte-order mark, tag characters) and every other default-ignorable
 * code point (the combining grapheme joiner, Hangul fillers, variation selectors), plus the braille blank.
 * Hidden inside a word they would slip it past moderation, and they mean nothing to a provider.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu;
const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029\u0085\v\f]/g;

/**
 * What is moderated, stored and sent to the provider for a prompt or a speech text: NFKC (so full-width
 * and stylised letters read as the letters they show), tabs as spaces, line breaks kept only where they
 * matter (speech pauses at them) and runs of spaces collapsed, with every invisible character removed.
 */
export function normalizePromptText(text: string, options: { keepLineBreaks: boolean }): string {
  const lines = text
    .normalize('NFKC')
    .replace(/\t/g, ' ')
    .replace(LINE_BREAKS, '\n')
    .split('\n')
    .map((line) => line.replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim());
  return options.keepLineBreaks
    ? lines
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : lines.filter((line) => line !== '').join(' ');
}
