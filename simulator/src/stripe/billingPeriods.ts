/**
 * The end of a billing period that starts at `start` (seconds), a month or a year on, on the anchor's day
 * of the month or the month's last day when it has fewer days (a 31 January anchor renews on 28 or 29
 * February), as Stripe bills.
 */
export function periodEnd(start: number, interval: 'month' | 'year', anchor: number = start): number {
  const from = new Date(start * 1000);
  const anchorDay = new Date(anchor * 1000).getUTCDate();
  const months = interval === 'year' ? 12 : 1;
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = Date.UTC(
    year,
    month,
    Math.min(anchorDay, lastDay),
    from.getUTCHours(),
    from.getUTCMinutes(),
    from.getUTCSeconds(),
  );
  return Math.floor(end / 1000);
}

export const DAY_SECONDS = 86_400;
