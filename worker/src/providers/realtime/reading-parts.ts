import type { LanguageCode } from '@mediagen/shared';

/**
 * About how many characters a minute of reading holds, per language: scripts that pack a word into a
 * character or two are read more slowly per character. Used to keep each part of a text well inside one
 * response's output limit, and to size that limit.
 */
const CHARACTERS_PER_SECOND: Partial<Record<string, number>> = { zh: 5, ja: 7, ko: 8 };
const DEFAULT_CHARACTERS_PER_SECOND = 14;

/** A part is at most about this long when read: ~1,200 audio tokens, a third of a response's limit. */
const PART_SECONDS = 60;

export function charactersPerSecond(language: LanguageCode): number {
  return CHARACTERS_PER_SECOND[language.slice(0, 2)] ?? DEFAULT_CHARACTERS_PER_SECOND;
}

export function maxPartCharacters(language: LanguageCode): number {
  return PART_SECONDS * charactersPerSecond(language);
}

/**
 * The text cut into parts read one response each: whole sentences together while they fit, a sentence
 * too long for a part cut between words, a word too long (a script without spaces) between characters.
 * Parts joined with a space give the text back, whitespace aside.
 */
export function readingParts(
  text: string,
  language: LanguageCode,
  maxCharacters = maxPartCharacters(language),
): string[] {
  const pieces = segments(text, language, 'sentence').flatMap((sentence) =>
    sentence.length <= maxCharacters
      ? [sentence]
      : pack(segments(sentence, language, 'word'), maxCharacters).flatMap((piece) =>
          piece.length <= maxCharacters ? [piece] : pack([...piece], maxCharacters),
        ),
  );
  return pack(pieces, maxCharacters)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function segments(text: string, language: LanguageCode, granularity: 'sentence' | 'word'): string[] {
  return [...new Intl.Segmenter(language, { granularity }).segment(text)].map((segment) => segment.segment);
}

/** Consecutive pieces joined while the whole stays within `max` (a piece longer than `max` stays alone). */
function pack(pieces: readonly string[], max: number): string[] {
  const packed: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current !== '' && (current + piece).trim().length > max) {
      packed.push(current);
      current = piece;
    } else {
      current += piece;
    }
  }
  if (current !== '') packed.push(current);
  return packed;
}
