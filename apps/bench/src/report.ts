import type { BenchFigure } from './jsonLine';

/** Left-aligns the first column; the others are right-aligned (figures) unless `alignRight` is false. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  alignRight = true,
): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const line = (r: readonly string[]) =>
    r
      .map((cell, c) => (c === 0 || !alignRight ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function section(title: string): void {
  console.log(`\n== ${title}`);
}

/** A figure for the closing JSON line; the ratio is value / baseline, rounded to three places. */
export function figure(value: number, baseline: number | null, unit: string, goal?: string): BenchFigure {
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    value: round(value),
    unit,
    baseline: baseline === null ? null : round(baseline),
    ratio: baseline ? round(value / baseline) : null,
    ...(goal ? { goal } : {}),
  };
}
