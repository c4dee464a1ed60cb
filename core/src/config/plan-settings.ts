import { z } from 'zod';
import { DEFAULT_PLAN_RULES, GENERATION_KINDS, type PlanCatalogue, type TokenBalance } from '@mediagen/shared';
import type { EnvReader } from './env-reader';

const MAX_TOKENS = 1_000_000;

/** `image:250,video:50,speech:200`: every kind once, each a whole number. */
const balanceSchema = z.string().transform((text, context) => {
  const entries = text.split(',').map((part) => part.trim().split(':'));
  const balance: Partial<TokenBalance> = {};
  for (const [kind, count] of entries) {
    const value = Number(count);
    if (!GENERATION_KINDS.includes(kind as never) || !/^\d+$/.test(count ?? '') || value > MAX_TOKENS) {
      context.addIssue({ code: 'custom', message: `must read like image:250,video:50,speech:200` });
      return z.NEVER;
    }
    balance[kind as keyof TokenBalance] = value;
  }
  if (GENERATION_KINDS.some((kind) => balance[kind] === undefined)) {
    context.addIssue({ code: 'custom', message: `must name ${GENERATION_KINDS.join(', ')}` });
    return z.NEVER;
  }
  return balance as TokenBalance;
});

const format = (balance: TokenBalance) => GENERATION_KINDS.map((kind) => `${kind}:${balance[kind]}`).join(',');

/**
 * The plans' rules (shared/src/plan-rules.ts) with what operators set: Pro's tokens per 30 days and
 * Enterprise's daily cap. Free is the spec's and not a setting.
 */
export function readPlanCatalogue(reader: EnvReader): PlanCatalogue {
  const pro = reader.read('PLAN_PRO_ALLOWANCE', balanceSchema, format(DEFAULT_PLAN_RULES.pro.allowance));
  const enterprise = reader.read(
    'PLAN_ENTERPRISE_DAILY_CAP',
    balanceSchema,
    format(DEFAULT_PLAN_RULES.enterprise.allowance),
  );
  return {
    free: DEFAULT_PLAN_RULES.free,
    pro: { ...DEFAULT_PLAN_RULES.pro, allowance: pro ?? DEFAULT_PLAN_RULES.pro.allowance },
    enterprise: { ...DEFAULT_PLAN_RULES.enterprise, allowance: enterprise ?? DEFAULT_PLAN_RULES.enterprise.allowance },
  };
}
