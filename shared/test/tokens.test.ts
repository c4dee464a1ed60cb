import { describe, expect, it } from 'vitest';
import { DAY_MS, TOKEN_ALLOWANCE, daysUntilReset, isResetDue, tokensExhaustedMessage } from '../src';

describe('token rules (spec §9)', () => {
  it('gives 1 image, 1 video and 2 speech tokens per period', () => {
    expect(TOKEN_ALLOWANCE).toEqual({ image: 1, video: 1, speech: 2 });
  });

  it('resets once 30 days have passed since the last reset, not before', () => {
    const lastReset = Date.UTC(2026, 0, 1);
    expect(isResetDue(lastReset, lastReset + 30 * DAY_MS - 1)).toBe(false);
    expect(isResetDue(lastReset, lastReset + 30 * DAY_MS)).toBe(true);
  });

  it('counts the days left rounded up', () => {
    const lastReset = Date.UTC(2026, 0, 1);
    expect(daysUntilReset(lastReset, lastReset)).toBe(30);
    expect(daysUntilReset(lastReset, lastReset + 1)).toBe(30);
    expect(daysUntilReset(lastReset, lastReset + 29.5 * DAY_MS)).toBe(1);
  });

  it('words the exhausted toast as the spec does on Free', () => {
    expect(tokensExhaustedMessage({ plan: 'free', kind: 'image', renewsInMs: 11.5 * DAY_MS })).toBe(
      'Your free tokens are over. Tokens will reset in 12 days. Please purchase a subscription for unlimited access.',
    );
    expect(tokensExhaustedMessage({ plan: 'free', kind: 'image', renewsInMs: 1000 })).toContain('reset in 1 day.');
  });

  it('never tells a paying creator their free tokens are over', () => {
    expect(tokensExhaustedMessage({ plan: 'pro', kind: 'video', renewsInMs: 3 * DAY_MS })).toBe(
      "Your Pro plan's video tokens for this period are used up. They renew in 3 days. Upgrade your plan for more.",
    );
    expect(tokensExhaustedMessage({ plan: 'enterprise', kind: 'image', renewsInMs: 4.2 * 3600_000 })).toBe(
      "You have reached the Enterprise plan's fair-use cap of image tokens for the day. It renews in 5 hours.",
    );
  });
});
