import type { StudentEvidence } from '@qiraa/assessment';
import type { AnySql } from '@qiraa/db';
import {
  deterministicEventId,
  type EventStore,
  isOfType,
  type NewEvent,
  type Recorded,
  readStreamThrough,
} from '@qiraa/eventstore';
import type { MasteryEventInput } from '@qiraa/gamification';
import { decideMonitoring, trendMasteryOf } from '../engine/decideMonitoring';
import { monitoringInputsOf } from '../engine/monitoringInput';
import type { AlertKind, AlertStatus, DerivedAlert, TrendDecision, TrendToken } from '../engine/monitoringTypes';
import { type DecisionEvent, decisionEvents, streams } from '../events';
import {
  ALERT_EVENT_TYPES,
  MONITORING_ALERT_CLOSED,
  MONITORING_ALERT_ESCALATED,
  MONITORING_EVENT_TYPES,
  type MonitoringAlertChanged,
  type MonitoringEvent,
  raisedTypeOf,
  TREND_DECIDED,
  type TrendDecided,
} from '../events/monitoringEvents';
import type { RuleSet } from '../rules/ruleSet';

/** A trend decision's id: the same year, rule-set version, goal, evidence and voids always give the same id. */
export const trendDecisionIdOf = (studentId: number, d: TrendDecision) =>
  deterministicEventId(
    'monitoring-trend',
    studentId,
    d.academicYear,
    d.ruleSetVersion,
    d.goalLine ? `${d.goalLine.goalWcpm}@${d.goalLine.goalOn}` : '-',
    d.evidenceEventIds.join(','),
    d.voidEventIds.join(','),
  );

/** An alert's identity: the student, its kind and the probe that opened it. */
export const alertIdOf = (studentId: number, kind: AlertKind, anchorAttemptId: string) =>
  deterministicEventId('monitoring-alert', studentId, kind, anchorAttemptId);

const transitionIdOf = (alertId: string, transition: number) =>
  deterministicEventId('monitoring-alert-transition', alertId, transition);

/** What the decision stream already says of monitoring: trend decisions per year, each alert's last step. */
export interface MonitoringStreamState {
  ids: Set<string>;
  /** Per academic year, every trend decision in stream order. */
  trends: Map<string, { id: string; decision: TrendToken | null }[]>;
  alerts: Map<string, { status: AlertStatus; transitions: number; data: MonitoringAlertChanged }>;
}

export async function monitoringStreamOf(
  sql: AnySql,
  store: EventStore,
  studentId: number,
): Promise<MonitoringStreamState> {
  const streamId = streams.decision(studentId);
  const types = [...MONITORING_EVENT_TYPES];
  const rows = decisionEvents(await readStreamThrough(store, sql, streamId, { types }));
  const state: MonitoringStreamState = { ids: new Set(), trends: new Map(), alerts: new Map() };
  for (const r of rows) {
    state.ids.add(r.eventId);
    if (r.type === TREND_DECIDED) {
      const d = r.data;
      const year = state.trends.get(d.academicYear) ?? [];
      year.push({ id: r.eventId, decision: d.decision });
      state.trends.set(d.academicYear, year);
    } else if (isOfType(...ALERT_EVENT_TYPES)(r)) {
      const d = r.data;
      state.alerts.set(d.alertId, { status: d.status, transitions: d.transition + 1, data: d });
    }
  }
  return state;
}

interface StepContext {
  studentId: number;
  organizationId: string | null;
  decidedAt: string;
  rules: RuleSet;
}

/** The alert events that move the stream's lifecycle of each alert to where the evidence puts it now. */
function alertEventsOf(ctx: StepContext, derived: readonly DerivedAlert[], state: MonitoringStreamState) {
  const events: NewEvent<MonitoringAlertChanged>[] = [];
  const step = (
    type: string,
    alertId: string,
    alert: Omit<DerivedAlert, 'status' | 'closeReason'>,
    status: AlertStatus,
    closeReason: MonitoringAlertChanged['closeReason'],
    counter: { n: number },
  ) => {
    const transition = counter.n++;
    const data: MonitoringAlertChanged = {
      alertKind: alert.alertKind,
      academicYear: alert.academicYear,
      anchorAttemptId: alert.anchorAttemptId,
      ruleId: alert.ruleId,
      evidenceEventIds: alert.evidenceEventIds,
      detail: alert.detail,
      alertId,
      studentId: ctx.studentId,
      organizationId: ctx.organizationId,
      status,
      closeReason,
      transition,
      ruleSetVersion: ctx.rules.version,
      changedAt: ctx.decidedAt,
    };
    events.push({
      eventId: transitionIdOf(alertId, transition),
      type,
      data,
      metadata: { organizationId: ctx.organizationId },
    });
  };
  const seen = new Set<string>();
  for (const a of derived) {
    const alertId = alertIdOf(ctx.studentId, a.alertKind, a.anchorAttemptId);
    seen.add(alertId);
    const stored = state.alerts.get(alertId);
    const counter = { n: stored?.transitions ?? 0 };
    const from = stored?.status ?? null;
    if (from === a.status) continue;
    // An episode that opened and closed before the stream ever heard of it (a backfill) is history, not news.
    if (from === null && a.status === 'closed') continue;
    if (a.status === 'closed') {
      step(MONITORING_ALERT_CLOSED, alertId, a, 'closed', a.closeReason, counter);
      continue;
    }
    // Opened, opened again (a void took the probe that closed it), or back from escalated to open.
    if (a.status === 'open' || from === null || from === 'closed') {
      step(raisedTypeOf(a.alertKind), alertId, a, 'open', null, counter);
    }
    if (a.status === 'escalated') step(MONITORING_ALERT_ESCALATED, alertId, a, 'escalated', null, counter);
  }
  // An alert the evidence no longer raises at all: its opening probe was voided (or the goal line it was
  // judged against moved away).
  for (const [alertId, stored] of state.alerts) {
    if (seen.has(alertId) || stored.status === 'closed') continue;
    step(MONITORING_ALERT_CLOSED, alertId, stored.data, 'closed', 'probe_voided', { n: stored.transitions });
  }
  return events;
}

/**
 * The monitoring events a recompute appends beside the skill statuses (same append, same expected version):
 * per academic year, a `TrendDecided` when the evidence state is new, with MER-05 when it is the year's first
 * above-goal trend, and the alert lifecycle steps that bring the stream to where the evidence puts them.
 */
export async function monitoringEventsOf(
  sql: AnySql,
  store: EventStore,
  evidence: StudentEvidence,
  ctx: StepContext,
): Promise<NewEvent<MonitoringEvent>[]> {
  const [inputs, state] = await Promise.all([
    monitoringInputsOf(sql, evidence, ctx.organizationId, ctx.rules),
    monitoringStreamOf(sql, store, ctx.studentId),
  ]);
  const events: NewEvent<MonitoringEvent>[] = [];
  const derived: DerivedAlert[] = [];
  for (const input of inputs) {
    const { trend, alerts } = decideMonitoring(input, ctx.rules);
    derived.push(...alerts);
    const trendDecisionId = trendDecisionIdOf(ctx.studentId, trend);
    if (state.ids.has(trendDecisionId)) continue;
    const earlier = state.trends.get(trend.academicYear) ?? [];
    const data: TrendDecided = {
      ...trend,
      trendDecisionId,
      studentId: ctx.studentId,
      organizationId: ctx.organizationId,
      supersedesTrendDecisionId: earlier.at(-1)?.id ?? null,
      decidedAt: ctx.decidedAt,
      mastery: trendMasteryOf(
        trend,
        earlier.map((e) => e.decision),
        ctx.rules,
      ),
    };
    events.push({
      eventId: trendDecisionId,
      type: TREND_DECIDED,
      data,
      metadata: { organizationId: ctx.organizationId },
    });
  }
  events.push(...alertEventsOf(ctx, derived, state));
  return events;
}

/** MER-05's mastery event of a `TrendDecided` (the first above-goal trend of a year), or none. */
export function trendMasteryInputOf(e: Recorded<DecisionEvent>, rules: RuleSet): MasteryEventInput | null {
  if (e.type !== TREND_DECIDED) return null;
  const d = e.data;
  if (!d.mastery || d.doNotDecideYet) return null;
  return {
    engineEventId: d.trendDecisionId,
    causationEventId: e.eventId,
    studentId: d.studentId,
    sourceKind: d.mastery.sourceKind,
    skillId: rules.oralCellSubSkills[rules.monitoring.cell] ?? null,
    measureCode: rules.monitoring.cell,
    occurredAt: d.decidedAt,
    sessionId: `decisions:${d.academicYear}:monitoring`,
  };
}
