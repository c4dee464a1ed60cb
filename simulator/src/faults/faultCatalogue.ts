import { MINIMAX_MESSAGES } from '../minimax/miniMaxErrors';
import { BILLING_CODES } from '../openai/openaiErrors';
import { FAULT_KINDS, type FaultRule, type ProviderRoute } from '../types';
import { routeProblem } from './parseFaultRule';

/**
 * Every fault the simulator can apply on a route, one rule each: every kind the route takes, every
 * MiniMax error code of its table, every OpenAI billing code. A suite that walks them meets each failure
 * a provider can answer, including ones added later.
 */
export function faultsOfRoute(route: ProviderRoute): FaultRule[] {
  return FAULT_KINDS.filter((fault) => routeProblem(fault, route) === undefined).flatMap((fault): FaultRule[] => {
    if (fault === 'minimax-code')
      return Object.keys(MINIMAX_MESSAGES).map((code) => ({ route, fault, code: Number(code) }));
    if (fault === 'insufficient-quota') return BILLING_CODES.map((billingCode) => ({ route, fault, billingCode }));
    return [{ route, fault }];
  });
}
