/** A plain text table: a header row, a rule, then the rows, columns padded to their widest cell. */
export function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = [
    headers.map(String),
    ...rows.map((row) => row.map((cell) => (cell === undefined || cell === null ? '' : String(cell)))),
  ];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
