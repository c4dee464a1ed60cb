import { FAULT_KINDS, PROVIDER_ROUTES, type FaultKind, type FaultRule, type ProviderRoute } from '../types';

export class InvalidFaultRuleError extends Error {
  override name = 'InvalidFaultRuleError';
}

/** Faults that only change the status a video task reports, so only the status query can carry them. */
export const STATUS_FAULTS: ReadonlySet<FaultKind> = new Set(['fail-status', 'unknown-status']);

export function isFaultKind(value: unknown): value is FaultKind {
  return (FAULT_KINDS as readonly unknown[]).includes(value);
}

function isProviderRoute(value: unknown): value is ProviderRoute {
  return (PROVIDER_ROUTES as readonly unknown[]).includes(value);
}

/** Checks a rule from config, the control API or code, so a typo fails loudly instead of never matching. */
export function parseFaultRule(value: unknown): FaultRule {
  if (typeof value !== 'object' || value === null) throw new InvalidFaultRuleError('a fault rule must be an object');
  const { route, fault, times, retryAfterSeconds, status } = value as Record<string, unknown>;
  if (!isProviderRoute(route)) {
    throw new InvalidFaultRuleError(`route must be one of ${PROVIDER_ROUTES.join(', ')}; got ${JSON.stringify(route)}`);
  }
  if (!isFaultKind(fault)) {
    throw new InvalidFaultRuleError(`fault must be one of ${FAULT_KINDS.join(', ')}; got ${JSON.stringify(fault)}`);
  }
  if (STATUS_FAULTS.has(fault) && route !== 'video.query') {
    throw new InvalidFaultRuleError(`fault ${fault} only applies to route video.query`);
  }
  const rule: FaultRule = { route, fault };
  if (times !== undefined && times !== null && times !== Infinity) {
    if (!Number.isInteger(times) || (times as number) < 1)
      throw new InvalidFaultRuleError('times must be a positive integer');
    rule.times = times as number;
  }
  if (retryAfterSeconds !== undefined) {
    if (!Number.isInteger(retryAfterSeconds) || (retryAfterSeconds as number) < 0) {
      throw new InvalidFaultRuleError('retryAfterSeconds must be a non-negative integer');
    }
    rule.retryAfterSeconds = retryAfterSeconds as number;
  }
  if (status !== undefined) {
    if (typeof status !== 'string' || status === '')
      throw new InvalidFaultRuleError('status must be a non-empty string');
    rule.status = status;
  }
  return rule;
}
