/**
 * `insufficient_quota` is the documented code; OpenAI's newer billing codes say the same more precisely
 * (no prepaid credit, a spend or usage limit reached). Waiting does not help: the call fails at once and
 * the token comes back.
 */
const OUT_OF_CREDIT_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'credit_balance_exhausted',
  'organization_spend_limit_exceeded',
  'project_spend_limit_exceeded',
  'organization_usage_limit_exceeded',
]);

export const OUT_OF_CREDIT_MESSAGE = 'Failed to generate speech: the speech provider account has no credit left';

export function isOutOfCredit(error: { code?: string | null | undefined; type?: string | null | undefined }): boolean {
  return OUT_OF_CREDIT_CODES.has(error.code ?? '') || OUT_OF_CREDIT_CODES.has(error.type ?? '');
}
