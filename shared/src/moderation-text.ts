import unhomoglyph from 'unhomoglyph';
import { normalizePromptText } from './prompt-text';

/**
 * Latin small capitals read as their letters: "ɴᴜᴅᴇ" reads "nude". Unicode's confusables.txt maps only
 * a few of them (ᴄ, ᴏ, ᴜ …), counting the rest as letters of their own.
 */
const SMALL_CAPITALS = new Map(
  [...'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ'].map((capital, index) => [capital, 'abcdefghijklmnopqrstuvwyz'[index]!]),
);

const COMBINING_MARKS = /\p{M}/gu;
const NOT_ASCII = /[^\p{ASCII}]/gu;

const withoutMarks = (text: string) => text.normalize('NFD').replace(COMBINING_MARKS, '');

/**
 * The Latin letter a character is made to look like: its prototype in Unicode's confusables.txt
 * (Cyrillic а, Greek Ν, Armenian ո …), or the letter of a small capital. A prototype may itself be a
 * small capital (Greek τ looks like ᴛ).
 */
function lookalikeOf(character: string): string {
  const prototype = unhomoglyph(character);
  return SMALL_CAPITALS.get(character) ?? SMALL_CAPITALS.get(prototype) ?? prototype;
}

/**
 * What moderation reads, and nothing else: the text as normalised (NFKC, invisible characters removed,
 * line breaks as spaces), without combining marks, every non-ASCII character as the Latin letter it
 * looks like, in lower case. ASCII is left as it is (confusables.txt would read "m" as "rn" and "1" as
 * "l"): leetspeak digits and signs are the word patterns' business.
 */
export function foldForModeration(text: string): string {
  const lookalikes = withoutMarks(normalizePromptText(text, { keepLineBreaks: false })).replace(NOT_ASCII, lookalikeOf);
  // Prototypes may carry marks of their own (ø is o with a stroke), and capitals fold only now.
  return withoutMarks(lookalikes.toLowerCase());
}
