import type { MessageItem } from './realtimeEvents';

/**
 * What the simulated model says. A real model may stray from a text it was asked to read; this one
 * behaves by a rule simple enough for tests to rely on (README, "How the simulated model behaves"):
 * - the text it is given is the last user `input_text` of its context; when it holds `<text>…</text>`,
 *   only what is between them (trimmed);
 * - instructions containing "word for word" make it read that text exactly;
 * - otherwise it is a voice agent: a text ending with a question mark is answered, anything else read.
 */

/** The faults that change what it says (route realtime.response). */
export type SpeechFault = 'stray' | 'answer';

export const GREETING = 'Hello! How can I help you today?';
export const NAME_ANSWER = "I'm an AI voice assistant, so I don't have a name. How can I help you today?";
export const QUESTION_ANSWER =
  "That's a good question! I'm an AI voice assistant, and I'd be glad to help you find out. What would you like to know?";
export const STATEMENT_ANSWER = "Sure, I'd be happy to help with that. What would you like me to do with it?";
export const STRAY_PREFIX = 'Here is your text: ';

/** The last user `input_text` of the context, or '' when there is none. */
export function lastUserText(context: readonly MessageItem[]): string {
  for (const item of [...context].reverse()) {
    if (item.role !== 'user') continue;
    const text = [...item.content].reverse().find((part) => part.type === 'input_text');
    if (text !== undefined) return text.text;
  }
  return '';
}

/** A worker wraps the text to read in `<text>` … `</text>`, apart from its own words; only that is read. */
export function textToRead(userText: string): string {
  const wrapped = /<text>([\s\S]*?)<\/text>/.exec(userText);
  return (wrapped?.[1] ?? userText).trim();
}

export function readsWordForWord(instructions: string): boolean {
  return /\bword[\s-]+for[\s-]+word\b/i.test(instructions);
}

/** Ends with a question mark of the scripts the product speaks: Latin, full-width (Chinese, Japanese), Arabic. */
function isQuestion(text: string): boolean {
  return /[?？؟]\s*$/.test(text);
}

/** The transcript of the model's answer to `text` under `instructions`, or under a fault. */
export function whatTheModelSays(text: string, instructions: string, fault?: SpeechFault): string {
  if (text === '') return GREETING;
  if (fault === 'answer') return answer(text);
  if (fault === 'stray') return stray(text);
  if (readsWordForWord(instructions)) return text;
  return isQuestion(text) ? answer(text) : text;
}

function answer(text: string): string {
  if (!isQuestion(text)) return STATEMENT_ANSWER;
  return /\bname\b/i.test(text) ? NAME_ANSWER : QUESTION_ANSWER;
}

/** A reading that strays well beyond one word in ten: a preamble of its own, then only the first half. */
function stray(text: string): string {
  const words = text.split(/\s+/);
  return `${STRAY_PREFIX}${words.slice(0, Math.max(1, Math.floor(words.length / 2))).join(' ')}`;
}
