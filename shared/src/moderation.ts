import { BLOCKED_WORDS } from './blocked-words';
import { blockedPromptMessage } from './errors';
import { foldForModeration } from './moderation-text';
import { promptParts } from './prompt-syntax';

export { BLOCKED_WORDS };

export type ModerationResult = { allowed: true } | { allowed: false; words: string[]; message: string };

/**
 * Leetspeak: the digits and signs each letter is written as. i and l also stand for each other, since
 * I, l, 1 and | are hard to tell apart.
 */
const SPELLINGS: Readonly<Record<string, string>> = {
  a: 'a4@',
  b: 'b8',
  e: 'e3',
  g: 'g96',
  i: 'il1!|',
  l: 'li1|',
  o: 'o0',
  s: 's5$',
  t: 't7+',
};

const letterPattern = (letter: string) => `[${SPELLINGS[letter] ?? letter}]`;

/**
 * A word stands alone when no Latin letter or digit touches it: once folded every Latin lookalike is
 * ASCII, so a word glued to another script ("nude" between two Han characters) still stands alone.
 */
const NOT_AFTER_WORD_CHARACTER = '(?<![a-z0-9])';
const NOT_BEFORE_WORD_CHARACTER = '(?![a-z0-9])';
/**
 * Between spaced letters ("n u d e", "n.u.d.e", "n-u-d-e"): anything but a letter, a digit or a sign
 * that spells a letter. Were a sign both, a long run of them could be split in too many ways to try, and
 * one request could hold the server's CPU.
 */
const LETTER_SIGNS = [...new Set(Object.values(SPELLINGS).join(''))].filter((sign) => !/[a-z0-9]/.test(sign));
const GAP = `[^\\p{L}\\p{N}${LETTER_SIGNS.join('')}]+`;

/**
 * The word and its plural, written whole ("nud3s") or with every letter set apart ("n u d e"). A word
 * split only once ("in appropriate") is two words: "in appropriate attire" is an innocent prompt.
 */
function wordPattern(word: string): RegExp {
  const letters = [...word].map(letterPattern);
  const plural = letterPattern('s');
  const whole = `${letters.join('')}${plural}?`;
  const spaced = `${letters.join(GAP)}(?:${GAP}${plural})?`;
  return new RegExp(`${NOT_AFTER_WORD_CHARACTER}(?:${whole}|${spaced})${NOT_BEFORE_WORD_CHARACTER}`, 'u');
}

const BLOCKED_PATTERNS = BLOCKED_WORDS.map((word) => ({ word, pattern: wordPattern(word) }));

/**
 * Spec §5's rule for image prompts, applied to every prompt and speech text: blocked when it holds a
 * listed word as a whole word, read through homoglyphs, small capitals, marks, invisible characters,
 * spacing and leetspeak (foldForModeration). A word that only contains one ("bloodhound", "Nudelsuppe")
 * is let through.
 */
export function moderatePrompt(prompt: string): ModerationResult {
  return moderateTexts([prompt]);
}

/**
 * An image prompt is moderated whole and part by part, negative parts included: a part is what the
 * provider reads, and taking the syntax out can bring letters together ("n[x]u d e" holds the part
 * "n u d e"). A blocked word is refused wherever it stands, inside [ ] or after AND too.
 */
export function moderateImagePrompt(prompt: string): ModerationResult {
  return moderateTexts([prompt, ...promptParts(prompt).map((part) => part.text)]);
}

function moderateTexts(texts: readonly string[]): ModerationResult {
  const folded = texts.map(foldForModeration);
  const words = BLOCKED_PATTERNS.filter(({ pattern }) => folded.some((text) => pattern.test(text))).map(
    ({ word }) => word,
  );
  if (words.length === 0) return { allowed: true };
  return { allowed: false, words, message: blockedPromptMessage(words) };
}
