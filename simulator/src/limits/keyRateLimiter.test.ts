import { describe, expect, it } from 'vitest';
import { KeyRateLimiter } from './keyRateLimiter';

describe('KeyRateLimiter', () => {
  it('lets max requests through per window, then locks the key out for the lockout', () => {
    let now = 0;
    const limiter = new KeyRateLimiter({ max: 3, windowMs: 1000, lockoutMs: 5000 }, () => now);
    for (let request = 0; request < 3; request += 1) expect(limiter.admit('k')).toEqual({ admitted: true });
    now = 999;
    expect(limiter.admit('k')).toEqual({ admitted: false, lockedOut: true, retryAfterMs: 5000 });
    now = 1500;
    // The window has room again, but the lockout still runs.
    expect(limiter.admit('k')).toEqual({ admitted: false, lockedOut: false, retryAfterMs: 4499 });
    expect(limiter.admit('other key')).toEqual({ admitted: true });
    // Locked out at 999 for 5000 ms.
    now = 5998;
    expect(limiter.admit('k')).toEqual({ admitted: false, lockedOut: false, retryAfterMs: 1 });
    now = 5999;
    expect(limiter.admit('k')).toEqual({ admitted: true });
  });

  it('slides: a request frees its slot exactly one window after it was let through', () => {
    let now = 0;
    const limiter = new KeyRateLimiter({ max: 2, windowMs: 1000, lockoutMs: 0 }, () => now);
    limiter.admit('k');
    now = 600;
    limiter.admit('k');
    now = 999;
    expect(limiter.admit('k')).toEqual({ admitted: false, lockedOut: false, retryAfterMs: 1 });
    now = 1000;
    expect(limiter.admit('k')).toEqual({ admitted: true });
    // The request let through at 600 is the oldest in the window now.
    expect(limiter.admit('k')).toEqual({ admitted: false, lockedOut: false, retryAfterMs: 600 });
  });
});
