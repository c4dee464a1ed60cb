import type { RateLimitRule } from '../types';

export type Admission = { admitted: true } | { admitted: false; lockedOut: boolean };

/**
 * A provider's request limit per API key: a sliding window of the requests it let through, and a
 * lockout that refuses everything for a while once a key goes over (as Stability does for 60 s).
 * Refused requests do not count.
 */
export class KeyRateLimiter {
  private readonly admittedAt = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();

  constructor(
    private readonly rule: RateLimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  admit(key: string): Admission {
    const now = this.now();
    if ((this.lockedUntil.get(key) ?? 0) > now) return { admitted: false, lockedOut: false };
    const recent = (this.admittedAt.get(key) ?? []).filter((at) => at > now - this.rule.windowMs);
    if (recent.length < this.rule.max) {
      recent.push(now);
      this.admittedAt.set(key, recent);
      return { admitted: true };
    }
    this.admittedAt.set(key, recent);
    if (this.rule.lockoutMs === 0) return { admitted: false, lockedOut: false };
    this.lockedUntil.set(key, now + this.rule.lockoutMs);
    return { admitted: false, lockedOut: true };
  }

  reset(): void {
    this.admittedAt.clear();
    this.lockedUntil.clear();
  }
}
