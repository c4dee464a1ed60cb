import { ERROR_MESSAGES, type ErrorCode } from '@mediagen/shared';
import { GenerationError } from '../generation-error';
import type { CallOutcome, ProviderName } from './provider-calls';

/**
 * The provider refused the call because our account has no credit left. Waiting does not help, so it is
 * never retried: the job ends at once, and as the provider did no work its token comes back. Whether the
 * provider's other jobs are then held back is the job runner's call (a provider whose balance can be
 * checked is; see credit-probe.ts).
 */
export class ProviderOutOfCreditError extends GenerationError {
  constructor(
    readonly provider: ProviderName,
    code: ErrorCode,
    /** The provider's own words: the operators' to read, never the creator's. */
    detail: string,
    /** The refusal's own status (Stability answers 429, as for a rate limit). */
    outcome: CallOutcome,
  ) {
    super(code, ERROR_MESSAGES[code] + detail, false, outcome, detail);
  }
}
