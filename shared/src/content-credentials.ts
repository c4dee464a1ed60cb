/**
 * Content Credentials: the C2PA manifest the worker signs into an output (worker/src/marking), and what
 * the API says of it (`contentCredentialsSchema`). Kept apart from the zod schemas, so the client reads
 * these without bundling zod.
 */

/** The formats a manifest is signed into; every other one keeps its plain AI-content metadata only. */
export const CONTENT_CREDENTIALS_FORMATS = ['image/png', 'image/jpeg', 'audio/mpeg'] as const;
export type ContentCredentialsFormat = (typeof CONTENT_CREDENTIALS_FORMATS)[number];

export function canCarryContentCredentials(mimeType: string): mimeType is ContentCredentialsFormat {
  return (CONTENT_CREDENTIALS_FORMATS as readonly string[]).includes(mimeType);
}

/**
 * The actions a manifest lists: the original was `c2pa.created`; the copy with the product mark
 * `c2pa.opened` (the original, its parent ingredient) then `c2pa.watermarked`.
 */
export const C2PA_ACTIONS = ['c2pa.created', 'c2pa.opened', 'c2pa.watermarked'] as const;
export type C2paAction = (typeof C2PA_ACTIONS)[number];

/** The IPTC digital source types a manifest names (the term's last segment): made by a trained model. */
export const DIGITAL_SOURCE_TYPES = ['trainedAlgorithmicMedia'] as const;
export type DigitalSourceType = (typeof DIGITAL_SOURCE_TYPES)[number];

/** Where anyone can check a file's Content Credentials (the CAI's public checker). */
export const CONTENT_CREDENTIALS_VERIFY_URL = 'https://contentcredentials.org/verify';
