import { describe, expect, it } from 'vitest';
import { periodEnd } from './billingPeriods';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('periodEnd', () => {
  it('renews a month on, on the same day and time', () => {
    expect(periodEnd(at('2026-03-14T09:30:00Z'), 'month')).toBe(at('2026-04-14T09:30:00Z'));
  });

  it("renews on a short month's last day, then back on the anchor's day", () => {
    const anchor = at('2026-01-31T00:00:00Z');
    const february = periodEnd(anchor, 'month');
    expect(february).toBe(at('2026-02-28T00:00:00Z'));
    expect(periodEnd(february, 'month', anchor)).toBe(at('2026-03-31T00:00:00Z'));
  });

  it('renews a year on', () => {
    expect(periodEnd(at('2028-02-29T12:00:00Z'), 'year')).toBe(at('2029-02-28T12:00:00Z'));
  });
});
