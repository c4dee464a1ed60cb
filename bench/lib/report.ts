export interface Figure {
  part: string;
  name: string;
  value: number;
  unit: string;
  /** The same measure for the ceiling, in the same run. */
  ceiling?: number;
  /** value / ceiling, or the ratio the target is expressed in. */
  ratio?: number;
  target?: string;
  met?: boolean;
  note?: string;
}

export function fmt(value: number | undefined, digits = 1): string {
  if (value === undefined || Number.isNaN(value)) return '–';
  // A latency percentile that falls on a job never heard (see lib/late-or-lost.ts).
  if (value === Infinity) return '∞';
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(digits);
}

export function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.part,
    f.name,
    `${fmt(f.value)} ${f.unit}`,
    f.ceiling === undefined ? '' : `${fmt(f.ceiling)} ${f.unit}`,
    f.ratio === undefined ? '' : fmt(f.ratio, 2),
    f.target ?? '',
    f.met === undefined ? '' : f.met ? 'met' : 'MISSED',
    f.note ?? '',
  ]);
  const header = ['part', 'figure', 'value', 'ceiling', 'ratio', 'target', '', 'note'];
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}
