import { type Static, Type } from 'typebox';

/**
 * The `monitoring` section of a decision rule set (docs/decisions-monitoring.md): the goal line, the trend
 * rule, the safe stop and the two alert rules of progress monitoring (oral-reading fluency over a year).
 * Rule ids `PMR-nn`: each names one branch of engine `decideMonitoring`.
 */
const PmrId = (id: string) => Type.Literal(id);
const Positive = Type.Number({ exclusiveMinimum: 0 });

export const MonitoringSectionSchema = Type.Object(
  {
    // The cell whose reads are the probes: a passage read aloud for one minute (words correct per minute).
    cell: Type.Literal('oral_text'),
    goalLine: Type.Object(
      {
        id: PmrId('PMR-01'),
        name: Type.String(),
        // The baseline is the first banded probe of the academic year; the goal is this band's rate cut in the
        // goal window of the cut table that probe pinned, reached on the first day of that window.
        goalBand: Type.Literal('on_track'),
        goalWindow: Type.Literal('EOY'),
        // Floor of the expected weekly gain (a child already at the benchmark still has a rising goal line).
        minWeeklyGain: Type.Number({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    trend: Type.Object(
      {
        id: PmrId('PMR-02'),
        name: Type.String(),
        method: Type.Literal('ordinary_least_squares'),
        minProbes: Type.Integer({ minimum: 3 }),
        minSpanDays: Type.Integer({ minimum: 7 }),
        // |trend slope − goal-line slope| within this many WCPM a week: on_goal.
        slopeTolerance: Type.Number({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    insufficient: Type.Object({ id: PmrId('PMR-09'), name: Type.String() }, { additionalProperties: false }),
    acuteRegression: Type.Object(
      {
        id: PmrId('PMR-03'),
        name: Type.String(),
        minPriorProbes: Type.Integer({ minimum: 2 }),
        minDropWcpm: Positive,
        minDropPercent: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
      },
      { additionalProperties: false },
    ),
    trendAlert: Type.Object(
      {
        id: PmrId('PMR-04'),
        name: Type.String(),
        escalateAfterProbes: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type MonitoringRules = Static<typeof MonitoringSectionSchema>;

/** Cross-checks the schema cannot express; returns the problem or null. */
export function monitoringProblem(m: MonitoringRules): string | null {
  if (m.acuteRegression.minPriorProbes > m.trend.minProbes) {
    return 'PMR-03 minPriorProbes must not exceed PMR-02 minProbes';
  }
  return null;
}
