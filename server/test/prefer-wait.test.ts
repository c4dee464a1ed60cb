import { describe, expect, it } from 'vitest';
import { MAX_PREFER_WAIT_SECONDS, preferredWaitSeconds } from '../src/http/prefer-wait';

describe('Prefer: wait (RFC 7240)', () => {
  it('reads wait among other preferences, in any case, with or without quotes', () => {
    expect(preferredWaitSeconds('wait=5')).toBe(5);
    expect(preferredWaitSeconds('respond-async, Wait=7')).toBe(7);
    expect(preferredWaitSeconds(['handling=lenient', 'wait="9"; foo=bar'])).toBe(9);
  });

  it(`cuts a longer wait to ${MAX_PREFER_WAIT_SECONDS} seconds`, () => {
    expect(preferredWaitSeconds('wait=600')).toBe(MAX_PREFER_WAIT_SECONDS);
  });

  it('ignores what it does not understand, as the RFC asks', () => {
    for (const header of [undefined, '', 'wait', 'wait=', 'wait=-1', 'wait=1.5', 'wait=soon', 'wait=0', 'waiting=5'])
      expect(preferredWaitSeconds(header), String(header)).toBeNull();
  });
});
