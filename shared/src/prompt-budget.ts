/**
 * Both providers cap the prompt text they accept at 2,000 characters (Stability v1 `text_prompts[].text`,
 * MiniMax `prompt`), the same limit the API checks a user's prompt against. The wording the spec
 * appends (image quality boosters, the real-video phrases) comes on top of that, so it is added only as
 * far as it fits: the user's own words always reach the provider whole.
 */
export const PROVIDER_PROMPT_LIMIT = 2000;

const SEPARATOR = ', ';

/** `base` followed by as many of `phrases` (in order, comma-separated) as fit within `limit` characters. */
export function appendWithinLimit(base: string, phrases: readonly string[], limit = PROVIDER_PROMPT_LIMIT): string {
  let text = base;
  for (const phrase of phrases) {
    const next = text === '' ? phrase : `${text}${SEPARATOR}${phrase}`;
    if (next.length > limit) break;
    text = next;
  }
  return text;
}
