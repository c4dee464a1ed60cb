import type { TokenBalance } from '@mediagen/shared';

/** Spec §4: the welcome toast lists the remaining image, video and speech tokens. */
export function welcomeMessage(tokens: TokenBalance): string {
  return `Welcome! You have ${tokens.image} image, ${tokens.video} video and ${tokens.speech} speech tokens remaining.`;
}
