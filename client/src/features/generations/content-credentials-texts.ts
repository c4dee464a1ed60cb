import {
  canCarryContentCredentials,
  DEFAULT_PLAN_RULES,
  type C2paAction,
  type ContentCredentialsSummary,
  type DigitalSourceType,
  type Generation,
  type PlanId,
} from '@mediagen/shared';

/** Which copy of a file its owner gets: the one with the MediaGen mark while the plan has the watermark. */
export type ServedCopy = 'original' | 'marked';

/**
 * The copy the server serves now (ArtifactVariants on the server: the plan as it is at each request), so
 * what the page says follows an upgrade or a downgrade at once. Unknown until the plan is.
 */
export function servedCopy(plan: PlanId | undefined): ServedCopy | undefined {
  if (plan === undefined) return undefined;
  return DEFAULT_PLAN_RULES[plan].watermark ? 'marked' : 'original';
}

const SOURCE_WORDS: Record<DigitalSourceType, string> = { trainedAlgorithmicMedia: 'Made with AI' };

/** What each action a copy's manifest lists says of that copy. */
const ACTION_WORDS: Record<C2paAction, string> = {
  'c2pa.created': 'This is the original file, as the model made it.',
  'c2pa.opened': 'This copy points to the original it was made from.',
  'c2pa.watermarked': 'This copy carries the MediaGen mark.',
};

/** Formats the worker cannot sign yet, by the name people know them by. */
const FORMAT_NAMES: Record<string, string> = {
  'video/mp4': 'MP4',
  'audio/wav': 'WAV',
  'audio/x-wav': 'WAV',
  'audio/ogg': 'Ogg',
  'audio/opus': 'Opus',
  'audio/flac': 'FLAC',
  'audio/aac': 'AAC',
  'image/webp': 'WebP',
};

/** The manifest's statements in plain words, for the copy its owner gets (its own lines left out while unknown). */
export function credentialsSentences(credentials: ContentCredentialsSummary, copy: ServedCopy | undefined): string[] {
  const { signedBy, issuer, signedAt } = credentials;
  const signer = issuer === undefined || issuer === signedBy ? signedBy : `${issuer} (${signedBy})`;
  const date = new Date(signedAt).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
  return [
    `${SOURCE_WORDS[credentials.digitalSourceType]} by ${credentials.model}, in ${credentials.generator}.`,
    `Signed by ${signer} on ${date}.`,
    ...(copy === undefined ? [] : credentials.actions[copy].map((action) => ACTION_WORDS[action])),
  ];
}

/** Why a file has no Content Credentials: its format cannot carry them yet, or it was stored unsigned. */
export function unsignedSentence(mimeType: string): string {
  if (canCarryContentCredentials(mimeType)) {
    return 'This file carries AI metadata, but it was stored without Content Credentials.';
  }
  const format = FORMAT_NAMES[mimeType];
  return format === undefined
    ? 'This file carries AI metadata, but its format carries no Content Credentials yet.'
    : `${format} files carry AI metadata but no Content Credentials yet.`;
}

/** A completed generation's files (an image set's every image made), each with its manifest summary if signed. */
export function filesOf(
  generation: Generation,
): { mimeType: string; contentCredentials?: ContentCredentialsSummary }[] {
  const outputs = (generation.outputs ?? []).filter((output) => 'url' in output);
  return outputs.length > 0 ? outputs : generation.result === undefined ? [] : [generation.result];
}
