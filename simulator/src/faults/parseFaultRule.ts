import { BILLING_CODES, type BillingCode } from '../openai/openaiErrors';
import { FAULT_KINDS, PROVIDER_ROUTES, type FaultKind, type FaultRule, type ProviderRoute } from '../types';

export class InvalidFaultRuleError extends Error {
  override name = 'InvalidFaultRuleError';
}

/** Faults that are one provider's own answer, so only that provider's routes can carry them. */
export const FAULT_ROUTES: Partial<Record<FaultKind, readonly ProviderRoute[]>> = {
  'fail-status': ['video.query'],
  'unknown-status': ['video.query'],
  'minimax-code': ['video.create', 'video.query', 'video.file'],
  'untyped-video': ['video.download'],
  'content-filtered': ['image', 'upscale'],
  'insufficient-quota': ['speech', 'realtime.connect', 'realtime.response'],
  'insufficient-balance': ['image', 'upscale', 'balance'],
  'rate-limit': ['realtime.response'],
  stray: ['realtime.response'],
  answer: ['realtime.response'],
};

const STRIPE_ROUTES = PROVIDER_ROUTES.filter((route) => route.startsWith('stripe.'));
/** Stripe fails as any HTTP API does: its 500 and 429 bodies, no answer, a cut connection, bad JSON. */
const STRIPE_FAULTS: readonly FaultKind[] = ['http500', 'http429', 'hang', 'drop', 'malformed'];

/**
 * Routes that take only some faults. A Realtime handshake is refused with an HTTP answer or not at all;
 * a Realtime response is a stream of events on an open WebSocket, so it fails inside its own events
 * (`rate-limit` is its 429) or through the connection.
 */
export const ROUTE_FAULTS: Partial<Record<ProviderRoute, readonly FaultKind[]>> = {
  'realtime.connect': ['http429', 'http500', 'drop', 'hang', 'insufficient-quota'],
  'realtime.response': ['stray', 'answer', 'drop', 'hang', 'rate-limit', 'insufficient-quota', 'http500', 'malformed'],
  ...Object.fromEntries(STRIPE_ROUTES.map((route) => [route, STRIPE_FAULTS])),
};

/** Faults the route applies itself, in an otherwise normal answer (the status it reports, a flagged image). */
export const ROUTE_APPLIED_FAULTS: ReadonlySet<FaultKind> = new Set([
  'fail-status',
  'unknown-status',
  'untyped-video',
  'content-filtered',
]);

export function isFaultKind(value: unknown): value is FaultKind {
  return (FAULT_KINDS as readonly unknown[]).includes(value);
}

function isProviderRoute(value: unknown): value is ProviderRoute {
  return (PROVIDER_ROUTES as readonly unknown[]).includes(value);
}

/** Why `fault` can never apply on `route`, or undefined when it can. */
export function routeProblem(fault: FaultKind, route: ProviderRoute): string | undefined {
  const routes = FAULT_ROUTES[fault];
  if (routes !== undefined && !routes.includes(route)) {
    return `fault ${fault} only applies to route${routes.length > 1 ? 's' : ''} ${routes.join(', ')}`;
  }
  const faults = ROUTE_FAULTS[route];
  if (faults !== undefined && !faults.includes(fault))
    return `route ${route} only takes the faults ${faults.join(', ')}`;
  return undefined;
}

/** Checks a rule from config, the control API or code, so a typo fails loudly instead of never matching. */
export function parseFaultRule(value: unknown): FaultRule {
  if (typeof value !== 'object' || value === null) throw new InvalidFaultRuleError('a fault rule must be an object');
  const { route, fault, times, after, retryAfterSeconds, status, code, billingCode, samples } = value as Record<
    string,
    unknown
  >;
  if (!isProviderRoute(route)) {
    throw new InvalidFaultRuleError(`route must be one of ${PROVIDER_ROUTES.join(', ')}; got ${JSON.stringify(route)}`);
  }
  if (!isFaultKind(fault)) {
    throw new InvalidFaultRuleError(`fault must be one of ${FAULT_KINDS.join(', ')}; got ${JSON.stringify(fault)}`);
  }
  const problem = routeProblem(fault, route);
  if (problem !== undefined) throw new InvalidFaultRuleError(problem);
  const rule: FaultRule = { route, fault };
  if (times !== undefined && times !== null && times !== Infinity) {
    if (!Number.isInteger(times) || (times as number) < 1)
      throw new InvalidFaultRuleError('times must be a positive integer');
    rule.times = times as number;
  }
  if (after !== undefined && after !== 0) {
    if (!Number.isInteger(after) || (after as number) < 0)
      throw new InvalidFaultRuleError('after must be a non-negative integer');
    rule.after = after as number;
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
  if (fault === 'minimax-code') {
    if (!Number.isInteger(code) || code === 0) {
      throw new InvalidFaultRuleError('minimax-code needs code: a non-zero MiniMax status code, e.g. 1026');
    }
    rule.code = code as number;
  }
  if (billingCode !== undefined) {
    if (fault !== 'insufficient-quota' || !(BILLING_CODES as readonly unknown[]).includes(billingCode)) {
      throw new InvalidFaultRuleError(`billingCode is for insufficient-quota, one of ${BILLING_CODES.join(', ')}`);
    }
    rule.billingCode = billingCode as BillingCode;
  }
  if (samples !== undefined) {
    const valid =
      Array.isArray(samples) &&
      samples.length > 0 &&
      samples.every((sample) => Number.isInteger(sample) && (sample as number) >= 0 && (sample as number) < 10);
    if (fault !== 'content-filtered' || route !== 'image' || !valid) {
      throw new InvalidFaultRuleError('samples is for content-filtered on image: the samples filtered, each 0 to 9');
    }
    rule.samples = samples as number[];
  }
  return rule;
}
