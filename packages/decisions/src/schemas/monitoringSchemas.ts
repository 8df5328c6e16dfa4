import { type Static, Type } from 'typebox';
import {
  ALERT_CLOSE_REASONS,
  ALERT_KINDS,
  ALERT_STATUSES,
  MONITORING_HOLD_REASONS,
  TREND_TOKENS,
} from '../engine/monitoringTypes';
import { STATUS_TOKENS } from '../rules/ruleSet';
import { SafeStopCodeSchema } from './safeStopCode';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...(description ? { description } : {}) }));
const nullable = <T extends ReturnType<typeof Type.Unsafe> | ReturnType<typeof Type.Object>>(
  schema: T,
  description: string,
) => Type.Union([schema, Type.Null()], { description });
const AcademicYear = Type.String({ pattern: '^[0-9]{4}-[0-9]{4}$', description: 'YYYY-YYYY' });
const Uuid = Type.String({ format: 'uuid' });

export const MonitoringQuery = Type.Object(
  { academicYear: Type.Optional(AcademicYear) },
  { additionalProperties: false },
);
export type MonitoringQuery = Static<typeof MonitoringQuery>;

export const GoalLineSchema = Type.Object({
  baselineAttemptId: Uuid,
  baselineAt: Type.String({ format: 'date-time' }),
  baselineWcpm: Type.Number(),
  goalWcpm: Type.Number({ description: 'the EOY benchmark (on_track rate cut) of the cut table the baseline pinned' }),
  goalOn: Type.String({ format: 'date', description: 'the first day of the EOY window' }),
  weeklyGain: Type.Number({ description: 'expected WCPM gained a week (rate of improvement)' }),
  cutVersion: Type.Union([Type.String(), Type.Null()]),
  grade: Type.Integer({ minimum: 1, maximum: 4 }),
});

export const TrendLineSchema = Type.Object({
  slope: Type.Number({ description: 'WCPM a week (ordinary least squares)' }),
  intercept: Type.Number({ description: 'the line’s WCPM on the baseline day' }),
  probes: Type.Integer({ minimum: 0 }),
  spanDays: Type.Integer({ minimum: 0 }),
});

export const ProbeSchema = Type.Object({
  attemptId: Uuid,
  at: Type.String({ format: 'date-time' }),
  wcpm: Type.Number({ minimum: 0 }),
  band: nullable(literals(STATUS_TOKENS), 'the read’s band; null when not banded'),
  goalLineWcpm: Type.Union([Type.Number(), Type.Null()], { description: 'the goal line on the probe’s day' }),
  acuteRegression: Type.Boolean({ description: 'PMR-03 flagged it' }),
});

export const AlertDetailSchema = Type.Union([
  Type.Object({ wcpm: Type.Number(), predictedWcpm: Type.Number(), dropWcpm: Type.Number() }),
  Type.Object({ probesBelowGoal: Type.Integer({ minimum: 1 }) }),
]);

export const MonitoringAlertSchema = Type.Object({
  alertId: Uuid,
  alertKind: literals(ALERT_KINDS, 'acute_regression (PMR-03) | trend_below_goal (PMR-04)'),
  status: literals(ALERT_STATUSES),
  closeReason: nullable(literals(ALERT_CLOSE_REASONS), 'why it closed; null while open'),
  ruleId: Type.String(),
  academicYear: AcademicYear,
  anchorAttemptId: Type.String({ format: 'uuid', description: 'the probe that opened it' }),
  detail: AlertDetailSchema,
  openedAt: Type.String({ format: 'date-time' }),
  changedAt: Type.String({ format: 'date-time' }),
});

export const MonitoringResponse = Type.Object({
  studentId: Type.Integer(),
  academicYear: Type.Union([AcademicYear, Type.Null()], { description: 'null when nothing is monitored yet' }),
  years: Type.Array(AcademicYear, { description: 'every academic year with a trend decision, newest first' }),
  decision: nullable(literals(TREND_TOKENS), 'below_goal | on_goal | above_goal; null exactly on a safe stop'),
  safeStop: nullable(literals(['do_not_decide_yet'] as const), 'do_not_decide_yet (200, not an error)'),
  code: SafeStopCodeSchema('on the safe stop'),
  holdReason: nullable(literals(MONITORING_HOLD_REASONS), 'why the safe stop'),
  doNotDecideYet: Type.Boolean({ description: 'downstream consumers halt' }),
  ruleId: Type.Union([Type.String(), Type.Null()], { description: 'PMR-02 (a trend) or PMR-09 (the safe stop)' }),
  ruleSetVersion: Type.Union([Type.String(), Type.Null()]),
  trendDecisionId: Type.Union([Uuid, Type.Null()]),
  decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  goalLine: nullable(GoalLineSchema, 'PMR-01; null without a baseline or a benchmark'),
  trend: nullable(TrendLineSchema, 'PMR-02’s line; null with fewer than two probe days'),
  probes: Type.Array(ProbeSchema, { description: 'the probes from the baseline on, oldest first' }),
  alerts: Type.Array(MonitoringAlertSchema, { description: 'the year’s open and escalated alerts' }),
});
export type MonitoringResponse = Static<typeof MonitoringResponse>;

const ReplayedTrendSchema = Type.Object({
  decision: nullable(literals(TREND_TOKENS), 'null exactly on a safe stop'),
  doNotDecideYet: Type.Boolean(),
  holdReason: nullable(literals(MONITORING_HOLD_REASONS), 'why the safe stop'),
  ruleId: Type.String(),
  ruleSetVersion: Type.String(),
  goalLine: nullable(GoalLineSchema, 'PMR-01'),
  trend: nullable(TrendLineSchema, 'PMR-02'),
  probes: Type.Array(ProbeSchema),
  evidenceEventIds: Type.Array(Uuid),
  voidEventIds: Type.Array(Uuid),
  trendDecisionId: Uuid,
});
const ReplayedAlertSchema = Type.Object({
  alertKind: literals(ALERT_KINDS),
  anchorAttemptId: Uuid,
  status: literals(ALERT_STATUSES),
  closeReason: nullable(literals(ALERT_CLOSE_REASONS), 'null while open'),
});

/** Monitoring's part of POST /api/admin/decisions/replay. */
export const MonitoringReplaySchema = Type.Object(
  {
    trends: Type.Array(
      Type.Object({
        academicYear: AcademicYear,
        derived: nullable(ReplayedTrendSchema, 'decideMonitoring on the evidence with the pinned rule-set version'),
        stored: nullable(ReplayedTrendSchema, 'the dec_trends row'),
        drift: Type.Array(Type.String(), { description: 'the fields that differ' }),
      }),
    ),
    alerts: Type.Array(
      Type.Object({
        alertId: Uuid,
        academicYear: Type.String(),
        derived: nullable(ReplayedAlertSchema, 'where the evidence puts the alert now'),
        stored: nullable(ReplayedAlertSchema, 'the dec_alerts row'),
        drift: Type.Array(Type.String(), { description: 'the fields that differ' }),
      }),
    ),
  },
  { description: 'progress monitoring: every year’s trend decision and every alert, derived and stored' },
);
