import type { RateLimitRule } from '../types';

/** Refused: `lockedOut` when this refusal started the key's lockout; `retryAfterMs` until it may try again. */
export type Admission = { admitted: true } | { admitted: false; lockedOut: boolean; retryAfterMs: number };

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
    const lockedUntil = this.lockedUntil.get(key) ?? 0;
    if (lockedUntil > now) return { admitted: false, lockedOut: false, retryAfterMs: lockedUntil - now };
    const recent = (this.admittedAt.get(key) ?? []).filter((at) => at > now - this.rule.windowMs);
    this.admittedAt.set(key, recent);
    if (recent.length < this.rule.max) {
      recent.push(now);
      return { admitted: true };
    }
    if (this.rule.lockoutMs === 0) {
      // The oldest admitted request leaves the window first, freeing a slot.
      return { admitted: false, lockedOut: false, retryAfterMs: recent[0]! + this.rule.windowMs - now };
    }
    this.lockedUntil.set(key, now + this.rule.lockoutMs);
    return { admitted: false, lockedOut: true, retryAfterMs: this.rule.lockoutMs };
  }

  reset(): void {
    this.admittedAt.clear();
    this.lockedUntil.clear();
  }
}
