import type { ScreeningWindow } from '@qiraa/assessment';
import type { StatusToken } from '../rules/ruleSet';

/** The trend tokens of progress monitoring, weakest first: the trend line's slope against the goal line's. */
export const TREND_TOKENS = ['below_goal', 'on_goal', 'above_goal'] as const;
export type TrendToken = (typeof TREND_TOKENS)[number];

/** Why a trend is the safe stop `do_not_decide_yet` (closed codes). */
export const MONITORING_HOLD_REASONS = ['no_baseline', 'no_goal', 'too_few_probes', 'too_short_span'] as const;
export type MonitoringHoldReason = (typeof MONITORING_HOLD_REASONS)[number];

export const ALERT_KINDS = ['acute_regression', 'trend_below_goal'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_STATUSES = ['open', 'escalated', 'closed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** Why an alert closed: the child's reading came back (acute), the trend met the goal line, or a void took its probe. */
export const ALERT_CLOSE_REASONS = ['recovered', 'trend_recovered', 'probe_voided'] as const;
export type AlertCloseReason = (typeof ALERT_CLOSE_REASONS)[number];

/** One oral-reading-fluency probe: a stopped, non-voided oral reading of a passage (evidenceOf's reads). */
export interface Probe {
  attemptId: string;
  at: string;
  wcpm: number;
  band: StatusToken | null;
  window: ScreeningWindow;
  grade: number;
  /** The read-cut version the read pinned (null: no table). */
  cutVersion: string | null;
  cutOrganizationId: string | null;
  eventIds: string[];
}

/** The EOY benchmark the baseline's pinned cut table sets, and the day it is due. */
export interface Goal {
  goalWcpm: number;
  /** YYYY-MM-DD: the first day of the goal window in the organization's calendar. */
  goalOn: string;
}

/** PMR-01: from the baseline (first banded probe of the year) to the EOY benchmark. */
export interface GoalLine extends Goal {
  baselineAttemptId: string;
  baselineAt: string;
  baselineWcpm: number;
  /** Expected words correct per minute gained a week (the rate of improvement), 2 decimals. */
  weeklyGain: number;
  cutVersion: string | null;
  grade: number;
}

/** PMR-02's ordinary least squares line over the probes (x: weeks since the baseline). */
export interface TrendLine {
  /** WCPM a week, 2 decimals. */
  slope: number;
  /** The line's value at the baseline day, 1 decimal. */
  intercept: number;
  probes: number;
  spanDays: number;
}

export interface ProbePoint {
  attemptId: string;
  at: string;
  wcpm: number;
  band: StatusToken | null;
  /** The goal line's value on the probe's day (1 decimal); null without a goal line. */
  goalLineWcpm: number | null;
  /** PMR-03 flagged it (the probe that opened an acute-regression alert, or one while it stayed open). */
  acuteRegression: boolean;
}

/** One academic year's trend decision: a token, or the safe stop. */
export interface TrendDecision {
  academicYear: string;
  decision: TrendToken | null;
  doNotDecideYet: boolean;
  holdReason: MonitoringHoldReason | null;
  /** PMR-02 (a token) or PMR-09 (the safe stop). */
  ruleId: string;
  ruleSetVersion: string;
  goalLine: GoalLine | null;
  trend: TrendLine | null;
  probes: ProbePoint[];
  /** Every event of the probes used, sorted. */
  evidenceEventIds: string[];
  /** The voids of the year's oral readings, sorted (a void always changes the decision's id). */
  voidEventIds: string[];
}

/** An alert as the evidence derives it now (the command compares it with the stream's lifecycle). */
export interface DerivedAlert {
  alertKind: AlertKind;
  academicYear: string;
  /** The probe that opened it: with the kind, its identity. */
  anchorAttemptId: string;
  status: AlertStatus;
  closeReason: AlertCloseReason | null;
  /** PMR-03 or PMR-04. */
  ruleId: string;
  /** The probes it rests on (anchor and, once closed, the probe that closed it), their event ids sorted. */
  evidenceEventIds: string[];
  /** Acute: the probe's WCPM, the trend's prediction for it and the drop; trend: the probes below goal so far. */
  detail: { wcpm: number; predictedWcpm: number; dropWcpm: number } | { probesBelowGoal: number };
}

export interface MonitoringDecision {
  trend: TrendDecision;
  alerts: DerivedAlert[];
}
