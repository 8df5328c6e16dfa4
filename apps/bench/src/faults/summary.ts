import type { ScenarioResult } from './scenarios';

/** The one summary line and whether the run passed. */
export function summarize(results: ScenarioResult[], drift: number, seconds: number): { line: string; ok: boolean } {
  const sum = (f: (r: ScenarioResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const acknowledged = sum((r) => r.tally.acknowledged.size);
  const lost = sum((r) => r.verdict.lost);
  const duplicates = sum((r) => r.tally.duplicates);
  const doubleApplied = sum((r) => r.verdict.doubleApplied);
  const outside = sum((r) => r.tally.fiveHundredsOutsideOutage);
  const outage500s = sum((r) => r.tally.outage500s);
  const hangs = sum((r) => r.tally.hangs);
  const unackedStored = sum((r) => (r.unacknowledgedStoredAllowed ? 0 : r.verdict.unacknowledgedStored));
  const recoveries = results.flatMap((r) => r.tally.recoveries);
  const recovery = recoveries.length ? Math.max(...recoveries) / 1000 : 0;
  const problems = results.flatMap((r) => r.problems);
  const line =
    `acknowledged ${acknowledged} lost ${lost} duplicates ${duplicates} double-applied ${doubleApplied} ` +
    `drift ${drift} 5xx-outside-outage ${outside} outage-500s ${outage500s} hangs ${hangs} ` +
    `recovery ${recovery.toFixed(1)} s unacknowledged-stored ${unackedStored} problems ${problems.length} ` +
    `in ${Math.round(seconds)} s`;
  const ok =
    acknowledged > 0 &&
    lost + doubleApplied + drift + outside + outage500s + hangs + unackedStored + problems.length === 0 &&
    recovery <= 5;
  for (const p of problems) process.stderr.write(`faults: problem: ${p}\n`);
  return { line, ok };
}
