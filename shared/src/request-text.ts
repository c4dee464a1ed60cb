import { z } from 'zod';

/**
 * Control characters (Unicode's Cc: C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F) have no place in
 * what a person types, and some break what reads them: PostgreSQL refuses a NUL in text and in jsonb,
 * a terminal obeys an escape sequence in a log line. Every string a client sends is checked here, before
 * any rule or store reads it, and a request that holds one is refused whole (400 INVALID_REQUEST):
 * stripping them silently would store something other than what was sent.
 */
const ANY_CONTROL = /\p{Cc}/u;

/**
 * Text a person writes (a prompt, a speech text) may hold the controls that are whitespace, which
 * normalizePromptText turns into spaces or line breaks: tab, line feed, vertical tab, form feed,
 * carriage return and next line (U+0085). Every other control is refused.
 */
const CONTROL_BUT_WHITESPACE = /(?![\t\n\v\f\r\u0085])\p{Cc}/u;

const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';

const controlCharacters = { error: CONTROL_CHARACTERS_MESSAGE };

type StringParams = Parameters<typeof z.string>[0];

/** A one-line value (a style, a search, a cursor, a reason): no control character at all. */
export function singleLineText(params?: StringParams) {
  return z.string(params).refine((text) => !ANY_CONTROL.test(text), controlCharacters);
}

/** Text a person writes (a prompt, a speech text): tabs and line breaks, no other control character. */
export function writtenText(params?: StringParams) {
  return z.string(params).refine((text) => !CONTROL_BUT_WHITESPACE.test(text), controlCharacters);
}

/**
 * A whole number sent as text (a query parameter). The text follows the one-line rule first: Number()
 * would read "\t20" as 20, letting a control character through unseen.
 */
export function wholeNumberText(range: { min: number; max: number }) {
  return singleLineText().pipe(z.coerce.number<string>().int().min(range.min).max(range.max));
}

/**
 * One of a fixed list of words. A value with a control character is not one of them either; it is
 * refused as such, so it reads as a malformed request rather than as the field's own message (a voice
 * "nova" with a NUL is not a missing voice).
 */
export function choiceOf<const T extends readonly string[]>(values: T, message?: string) {
  return z.enum(values, {
    error: (issue) =>
      typeof issue.input === 'string' && ANY_CONTROL.test(issue.input) ? CONTROL_CHARACTERS_MESSAGE : message,
  });
}
