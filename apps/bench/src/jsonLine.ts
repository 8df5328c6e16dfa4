/** One figure beside its baseline measured in the same run; ratio = value / baseline. */
export interface BenchFigure {
  value: number;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  goal?: string;
}

/** Ends a benchmark's output with the one JSON line a script reads. */
export function printBenchJson(bench: string, figures: Record<string, BenchFigure>): void {
  process.stdout.write(`${JSON.stringify({ bench, figures })}\n`);
}
