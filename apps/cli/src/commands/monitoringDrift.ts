import type { DecisionReplayReport } from '@qiraa/decisions';

const side = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
/** Long fields are named, not printed. */
const LONG = new Set(['goalLine', 'trend', 'probes', 'evidenceEventIds', 'voidEventIds']);

function fields(drift: readonly string[], derived: object | null, stored: object | null): string {
  if (!derived || !stored) return derived ? 'stored none' : 'derived none';
  return drift
    .map((f) =>
      LONG.has(f)
        ? `${f} differs`
        : `${f} derived ${side((derived as Record<string, unknown>)[f])} stored ${side((stored as Record<string, unknown>)[f])}`,
    )
    .join('; ');
}

/** One line per drifting monitoring trend (per academic year) or alert of a replay report. */
export function monitoringDriftLines(r: DecisionReplayReport): string[] {
  return [
    ...r.monitoring.trends
      .filter((t) => t.drift.length > 0)
      .map(
        (t) =>
          `drift: student ${r.studentId} ${t.academicYear} monitoring trend: ${fields(t.drift, t.derived, t.stored)}`,
      ),
    ...r.monitoring.alerts
      .filter((a) => a.drift.length > 0)
      .map(
        (a) =>
          `drift: student ${r.studentId} ${a.academicYear} monitoring alert ${a.alertId}: ${fields(a.drift, a.derived, a.stored)}`,
      ),
  ];
}
