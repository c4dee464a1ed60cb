/** Words that block a prompt or a speech text (spec §5), matched as whole words however they are spelled. */
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
