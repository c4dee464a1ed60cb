/**
 * What looks like a credential in a provider's answer: a bearer value, an `sk-` key (OpenAI, Stability,
 * already masked or not), a JWT (MiniMax keys), or any long run of key characters with letters and
 * digits (signed URLs' tokens), which an error code (`organization_spend_limit_exceeded`) never is.
 */
const KEY_LIKE = /(Bearer\s+)?(sk-[\w*-]{6,}|eyJ[\w-]+\.[\w.-]+|(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{32,})/g;

/**
 * A provider's answer as operators may keep and read it: every key-like run masked to its last four
 * characters, enough to tell which key it was without making it usable.
 */
export function maskSecrets(text: string): string {
  return text.replace(
    KEY_LIKE,
    (_match, bearer: string | undefined, key: string) => `${bearer ?? ''}…${key.slice(-4)}`,
  );
}
