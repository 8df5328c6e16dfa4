import type { AlertCloseReason, AlertKind, AlertStatus, DerivedAlert, TrendDecision } from '../engine/monitoringTypes';
import type { MasteryRuleKind } from '../rules/ruleSet';

/**
 * Progress monitoring's events, on the student's decision stream `decision-<studentId>` beside the skill
 * statuses (docs/decisions-monitoring.md). Ids are deterministic: a recompute of unchanged evidence appends
 * nothing.
 */
export const TREND_DECIDED = 'TrendDecided';
/** An acute_regression alert opened (PMR-03), or opened again after a void took the probe that closed it. */
export const REGRESSION_ALERT_RAISED = 'RegressionAlertRaised';
/** A trend_below_goal alert opened (PMR-04), or opened again. */
export const TREND_ALERT_RAISED = 'TrendAlertRaised';
export const MONITORING_ALERT_ESCALATED = 'MonitoringAlertEscalated';
export const MONITORING_ALERT_CLOSED = 'MonitoringAlertClosed';

export const ALERT_EVENT_TYPES = [
  REGRESSION_ALERT_RAISED,
  TREND_ALERT_RAISED,
  MONITORING_ALERT_ESCALATED,
  MONITORING_ALERT_CLOSED,
] as const;
export const MONITORING_EVENT_TYPES = [TREND_DECIDED, ...ALERT_EVENT_TYPES] as const;

export interface TrendDecided extends TrendDecision {
  /** Deterministic: student, year, rule-set version, goal, evidence and void ids. MER-05's engine event id. */
  trendDecisionId: string;
  studentId: number;
  organizationId: string | null;
  supersedesTrendDecisionId: string | null;
  decidedAt: string;
  /** MER-05 when this decision earned `cbm_trend_above_goal`, else null. */
  mastery: { ruleId: string; sourceKind: MasteryRuleKind } | null;
}

/** One step of an alert's lifecycle (every alert event carries it). */
export interface MonitoringAlertChanged extends Omit<DerivedAlert, 'status' | 'closeReason'> {
  /** uuidv5 of the student, the kind and the probe that opened it. */
  alertId: string;
  studentId: number;
  organizationId: string | null;
  status: AlertStatus;
  closeReason: AlertCloseReason | null;
  /** 0 for the opening, then 1, 2, …: with the alert id, the event's id. */
  transition: number;
  ruleSetVersion: string;
  changedAt: string;
}

export const lifecycleOf = (type: string): 'opened' | 'escalated' | 'closed' =>
  type === MONITORING_ALERT_ESCALATED ? 'escalated' : type === MONITORING_ALERT_CLOSED ? 'closed' : 'opened';

export const raisedTypeOf = (kind: AlertKind) =>
  kind === 'acute_regression' ? REGRESSION_ALERT_RAISED : TREND_ALERT_RAISED;

/** The data of any monitoring event. */
export type MonitoringEvent = TrendDecided | MonitoringAlertChanged;
