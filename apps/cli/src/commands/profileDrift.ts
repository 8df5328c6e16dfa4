import type { DecisionReplayReport } from '@qiraa/decisions';

const side = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
/** Long fields are named, not printed. */
const LONG = new Set([
  'groups',
  'domains',
  'missingDomains',
  'skillStatusDecisionIds',
  'nextDataAction',
  'nextDataSteps',
]);

function fields(
  drift: readonly string[],
  derived: Record<string, unknown> | null,
  stored: Record<string, unknown> | null,
) {
  if (!derived || !stored) return derived ? 'stored none' : 'derived none';
  return drift
    .map((f) => (LONG.has(f) ? `${f} differs` : `${f} derived ${side(derived[f])} stored ${side(stored[f])}`))
    .join('; ');
}

/** One line per drifting profile or bundle recommendation (per window) of a replay report. */
export function profileDriftLines(r: DecisionReplayReport): string[] {
  return [
    ...r.profiles.profiles
      .filter((p) => p.drift.length > 0)
      .map(
        (p) =>
          `drift: student ${r.studentId} ${p.academicYear} ${p.window} profile: ${fields(p.drift, p.derived, p.stored)}`,
      ),
    ...r.profiles.recommendations
      .filter((p) => p.drift.length > 0)
      .map(
        (p) =>
          `drift: student ${r.studentId} ${p.academicYear} ${p.window} recommendation: ${fields(p.drift, p.derived, p.stored)}`,
      ),
  ];
}
