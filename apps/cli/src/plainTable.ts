/**
 * A table as plain text: a header, a rule of dashes, one line per row, columns padded with two spaces and
 * numbers right-aligned. Unlike console.table it has no box characters, no index column and no quotes around
 * strings, so it reads in a terminal and survives `grep`, `awk` and `column`.
 */
export function plainTable(rows: readonly Record<string, string | number>[]): string {
  const first = rows[0];
  if (!first) return '';
  const columns = Object.keys(first);
  const cell = (row: Record<string, string | number>, column: string) => String(row[column] ?? '');
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
  const numeric = columns.map((c) => rows.every((r) => typeof r[c] === 'number'));
  const line = (values: string[], alignNumbers: boolean) =>
    values
      .map((v, i) => (alignNumbers && numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [
    line(columns, true),
    line(
      widths.map((w) => '-'.repeat(w)),
      false,
    ),
    ...rows.map((r) =>
      line(
        columns.map((c) => cell(r, c)),
        true,
      ),
    ),
  ].join('\n');
}
