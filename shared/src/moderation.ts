import { blockedPromptMessage } from './errors';

/** Words that block an image prompt, matched case-insensitively anywhere in it (spec §5). */
export const BLOCKED_WORDS = [
  'nsfw',
  'nude',
  'explicit',
  'violence',
  'gore',
  'blood',
  'disturbing',
  'offensive',
  'inappropriate',
] as const;

export type ModerationResult = { allowed: true } | { allowed: false; words: string[]; message: string };

export function moderatePrompt(prompt: string): ModerationResult {
  const lower = prompt.toLowerCase();
  const words = BLOCKED_WORDS.filter((word) => lower.includes(word));
  if (words.length === 0) return { allowed: true };
  return { allowed: false, words, message: blockedPromptMessage(words) };
}
