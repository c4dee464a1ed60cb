/**
 * The image prompt syntax the Prompt Guide teaches, read into weighted parts:
 *
 * - `text::1.5` ends a part and gives it that weight. What follows starts the next part, so
 *   `mountain lake::2 cabin::1 fog::0.5` is three parts. A part with no weight weighs 1.
 * - `A AND B` (AND in capitals, between words) blends two parts, each weighing 1 unless weighted.
 * - `[blurry, extra fingers]` is a negative part of weight -1, kept out of the picture. Inside the
 *   brackets the same rules hold (`[blurry::2 AND text]`), and a weight says how strongly to keep it
 *   out: `[fog::2]` and `[fog::-2]` both weigh -2.
 * - Outside brackets a weight below 0 makes a negative part too (`fog::-1` is `[fog]`), as Stability
 *   reads it.
 *
 * Rules for what the syntax cannot mean, chosen so nothing is sent other than as the creator reads it:
 *
 * - Weights are numbers from -10 to 10, never 0 (a part of weight 0 would be left out: leave it out
 *   instead). Stability v1 takes any number; past ±10 one part drowns the rest.
 * - `::` not followed by a number is ordinary text (`std::vector`), as is a number glued to letters
 *   (`16::9px`), and so is AND at either end of the prompt. Lowercase `and` is the word and.
 * - Whitespace around parts, and commas at their ends, are left out; a part with no letter or digit
 *   (an empty `[]`, a doubled `AND`) is dropped, and syntax that leaves no words at all (`[]` alone)
 *   is text.
 * - Refused with a message (the API answers 400), since reading them literally would ask for what the
 *   creator meant to keep out: a `[` never closed, a `]` never opened, a `[` inside brackets, a weight
 *   with no words before it or right after a `]`, a weight out of range, more than MAX_PROMPT_PARTS
 *   parts, and a prompt made only of negative parts (Stability needs something to make).
 *
 * A prompt without any of this syntax is one part of weight 1, its text unchanged.
 */

export interface PromptPart {
  text: string;
  /** Above 0 to ask for the part, below 0 to keep it out. */
  weight: number;
}

export type PromptSyntaxReading =
  { ok: true; parts: PromptPart[]; usesSyntax: boolean } | { ok: false; message: string };

export const PROMPT_WEIGHT_LIMIT = 10;

/**
 * The parts a creator may write. Stability v1 sets no number of `text_prompts` (only at least one), but
 * every part is encoded on its side, and ten say more than the Guide ever needs.
 */
export const MAX_PROMPT_PARTS = 10;

// A weight is `::` right before a number that no letter or digit continues (`::2.` ends a sentence, `::2.5x`
// is text); AND stands between words.
const MARKER = /::(-?(?:\d+(?:\.\d+)?|\.\d+))(?![\p{L}\p{N}]|\.\d)|(?<=\S\s+)AND(?=\s+\S)/gu;
const ANY_MARKER = new RegExp(MARKER.source, 'u');
const HAS_WORD = /[\p{L}\p{N}]/u;
const PART_EDGES = /^[\s,]+|[\s,]+$/g;

// Messages never echo what was written: the creator sees the prompt beside them.
const SYNTAX_ERRORS = {
  unclosed: 'A [ is never closed: write what to keep out between [ and ], like [blurry]',
  unopened: 'A ] has no [ before it: write what to keep out between [ and ], like [blurry]',
  nested: 'Brackets cannot go inside brackets: close the first ] before opening another [',
  weightAfterBrackets: 'Put the weight of what to keep out inside its brackets, like [fog::2]',
  weightWithoutWords: 'A weight needs words before it, like fog::0.5',
  zeroWeight: 'A weight of 0 would leave its part out: remove the part or give it another weight',
  weightOutOfRange: `Weights go from -${PROMPT_WEIGHT_LIMIT} to ${PROMPT_WEIGHT_LIMIT}, like fog::0.5 or [blurry::2]`,
  onlyNegative: 'Say what to make, not only what to keep out: add words outside the [ ]',
  tooManyParts: `A prompt can have at most ${MAX_PROMPT_PARTS} parts (weighted, joined with AND or in [ ])`,
} as const;

class PromptSyntaxError extends Error {}

/** Reads a prompt (already normalised) into its parts, or says why its syntax cannot be read. */
export function parsePromptSyntax(prompt: string): PromptSyntaxReading {
  try {
    const { outside, negatives } = splitBrackets(prompt);
    const positives = readParts(outside, false);
    const negativeParts = negatives.flatMap((group) => readParts(group, true));
    const parts = [...positives, ...negativeParts];
    // Syntax that leaves no words at all (a lone AND) was not meant as syntax.
    const usesSyntax = (negatives.length > 0 || ANY_MARKER.test(outside)) && parts.length > 0;
    if (!usesSyntax) return { ok: true, parts: [{ text: prompt, weight: 1 }], usesSyntax: false };
    if (!parts.some((part) => part.weight > 0)) throw new PromptSyntaxError(SYNTAX_ERRORS.onlyNegative);
    if (parts.length > MAX_PROMPT_PARTS) throw new PromptSyntaxError(SYNTAX_ERRORS.tooManyParts);
    return { ok: true, parts, usesSyntax: true };
  } catch (error) {
    if (error instanceof PromptSyntaxError) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * The parts a provider is sent for a stored prompt. A prompt accepted before the syntax was read (a `[`
 * never closed) is read literally, as it was then, rather than failing a paid-for job.
 */
export function promptParts(prompt: string): PromptPart[] {
  const reading = parsePromptSyntax(prompt);
  return reading.ok ? reading.parts : [{ text: prompt, weight: 1 }];
}

/** The text outside brackets (each group as a space, so words either side stay apart) and each group's text. */
function splitBrackets(prompt: string): { outside: string; negatives: string[] } {
  let outside = '';
  const negatives: string[] = [];
  let group: string | undefined;
  // By UTF-16 unit: a bracket is one, and a character of two is copied unit by unit, whole.
  for (let index = 0; index < prompt.length; index += 1) {
    const character = prompt.charAt(index);
    if (character === '[') {
      if (group !== undefined) throw new PromptSyntaxError(SYNTAX_ERRORS.nested);
      group = '';
    } else if (character === ']') {
      if (group === undefined) throw new PromptSyntaxError(SYNTAX_ERRORS.unopened);
      if (prompt.startsWith('::', index + 1)) throw new PromptSyntaxError(SYNTAX_ERRORS.weightAfterBrackets);
      negatives.push(group);
      group = undefined;
      outside += ' ';
    } else if (group === undefined) {
      outside += character;
    } else {
      group += character;
    }
  }
  if (group !== undefined) throw new PromptSyntaxError(SYNTAX_ERRORS.unclosed);
  return { outside, negatives };
}

/** The weighted parts of a run of text; inside brackets every part is negative. */
function readParts(text: string, negative: boolean): PromptPart[] {
  const parts: PromptPart[] = [];
  const close = (raw: string, written: string | undefined) => {
    const partText = raw.replace(PART_EDGES, '');
    if (!HAS_WORD.test(partText)) {
      if (written !== undefined) throw new PromptSyntaxError(SYNTAX_ERRORS.weightWithoutWords);
      return;
    }
    const weight = written === undefined ? 1 : checkedWeight(written);
    parts.push({ text: partText, weight: negative ? -Math.abs(weight) : weight });
  };
  let start = 0;
  for (const match of text.matchAll(MARKER)) {
    close(text.slice(start, match.index), match[1]);
    start = match.index + match[0].length;
  }
  close(text.slice(start), undefined);
  return parts;
}

function checkedWeight(written: string): number {
  const weight = Number(written);
  if (weight === 0) throw new PromptSyntaxError(SYNTAX_ERRORS.zeroWeight);
  if (Math.abs(weight) > PROMPT_WEIGHT_LIMIT) throw new PromptSyntaxError(SYNTAX_ERRORS.weightOutOfRange);
  return weight;
}
