import type { FaultRule, ProviderRoute } from '../types';
import { parseFaultRule } from './parseFaultRule';

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
  /** Matching requests still let through before it applies (`after`). */
  passing: number;
}

/** The configured faults, in priority order; each rule is used up one matching request at a time. */
export class FaultBook {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    const checked = parseFaultRule(rule);
    this.rules.push({ rule: checked, remaining: checked.times ?? Infinity, passing: checked.after ?? 0 });
  }

  clear(): void {
    this.rules = [];
  }

  /** The first rule for this route, consuming one of its uses (or, while it lets requests through, one of those). */
  take(route: ProviderRoute): FaultRule | undefined {
    const active = this.rules.find((candidate) => candidate.rule.route === route);
    if (!active) return undefined;
    if (active.passing > 0) {
      active.passing -= 1;
      return undefined;
    }
    active.remaining -= 1;
    if (active.remaining <= 0) this.rules = this.rules.filter((candidate) => candidate !== active);
    return active.rule;
  }
}
