/**
 * The rule a reading keeps to: its transcript, as words, differs from the text by at most one word in
 * ten, plus one (word-level edit distance: words left out, added or changed). Both are normalised alike
 * first: Unicode NFKC, lower case, every run of characters that are not letters, marks or digits a break
 * between words (so punctuation, quotes and spacing never count). In scripts written without spaces
 * (Chinese, Japanese, Thai) each character counts as a word.
 */
export interface ReadingCheck {
  matches: boolean;
  /** Words the transcript left out, added or changed. */
  edits: number;
  /** The most the rule allows for this text. */
  allowed: number;
}

const WORD_BREAKS = /[^\p{L}\p{M}\p{N}]+/u;
const UNSPACED_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

export function readingWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(WORD_BREAKS)
    .filter((word) => word !== '')
    .flatMap((word) => (UNSPACED_SCRIPTS.test(word) ? [...word] : [word]));
}

export function checkReading(text: string, transcript: string): ReadingCheck {
  const expected = readingWords(text);
  const edits = editDistance(expected, readingWords(transcript));
  const allowed = Math.floor(expected.length / 10) + 1;
  return { matches: edits <= allowed, edits, allowed };
}

/** Levenshtein distance over words, in two rows. */
function editDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
