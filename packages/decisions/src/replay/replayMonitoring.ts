import type { StudentEvidence } from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import { isOfType, type RecordedEvent } from '@qiraa/eventstore';
import { userOrganization } from '@qiraa/identity';
import { alertIdOf, trendDecisionIdOf } from '../commands/monitoringStep';
import { decideMonitoring } from '../engine/decideMonitoring';
import { monitoringInputsOf } from '../engine/monitoringInput';
import type { AlertCloseReason, AlertKind, AlertStatus, TrendDecision } from '../engine/monitoringTypes';
import { decisionEvents as typedDecisionEvents } from '../events';
import { ALERT_EVENT_TYPES, type MonitoringAlertChanged, TREND_DECIDED } from '../events/monitoringEvents';
import { CURRENT_RULE_SET, RULE_SETS } from '../rules/ruleSet';
import { canonical } from './compareDecisions';

/** The fields of a trend decision a replay re-derives and compares (decidedAt is a clock, not derived). */
export const TREND_REPLAY_FIELDS = [
  'decision',
  'doNotDecideYet',
  'holdReason',
  'ruleId',
  'ruleSetVersion',
  'goalLine',
  'trend',
  'probes',
  'evidenceEventIds',
  'voidEventIds',
  'trendDecisionId',
] as const;
export type TrendReplayField = (typeof TREND_REPLAY_FIELDS)[number];
export type ReplayedTrend = Pick<TrendDecision, Exclude<TrendReplayField, 'trendDecisionId'>> & {
  trendDecisionId: string;
};

/** Where an alert's lifecycle stands: the fields compared. */
export const ALERT_REPLAY_FIELDS = ['alertKind', 'anchorAttemptId', 'status', 'closeReason'] as const;
export type AlertReplayField = (typeof ALERT_REPLAY_FIELDS)[number];
export interface ReplayedAlert {
  alertKind: AlertKind;
  anchorAttemptId: string;
  status: AlertStatus;
  closeReason: AlertCloseReason | null;
}

export interface TrendReplay {
  academicYear: string;
  derived: ReplayedTrend | null;
  stored: ReplayedTrend | null;
  drift: TrendReplayField[];
}
export interface AlertReplay {
  alertId: string;
  academicYear: string;
  derived: ReplayedAlert | null;
  stored: ReplayedAlert | null;
  drift: AlertReplayField[];
}
export interface MonitoringReplay {
  trends: TrendReplay[];
  alerts: AlertReplay[];
}

function driftOf<F extends string>(fields: readonly F[], a: object | null, b: object | null): F[] {
  if (!a || !b) return a === b ? [] : [...fields];
  return fields.filter(
    (f) => canonical((a as Record<string, unknown>)[f]) !== canonical((b as Record<string, unknown>)[f]),
  );
}

interface TrendRow {
  academic_year: string;
  decision: ReplayedTrend['decision'];
  do_not_decide_yet: boolean;
  hold_reason: ReplayedTrend['holdReason'];
  rule_id: string;
  rule_set_version: string;
  goal_line: ReplayedTrend['goalLine'];
  trend: ReplayedTrend['trend'];
  probes: ReplayedTrend['probes'];
  evidence_event_ids: string[];
  void_event_ids: string[];
  trend_decision_id: string;
}
interface AlertRow {
  alert_id: string;
  academic_year: string;
  alert_kind: AlertKind;
  anchor_attempt_id: string;
  status: AlertStatus;
  close_reason: AlertCloseReason | null;
}

/**
 * Monitoring's part of a student's decision replay: the trend decision of every academic year and every
 * alert's lifecycle, derived again from the evidence (each year with the rule-set version its latest
 * `TrendDecided` pinned), compared with `dec_trends` and `dec_alerts`. An alert the evidence no longer raises
 * derives as closed (`probe_voided`); an episode that opened and closed before the stream named it derives
 * nothing (the recompute appends nothing for it either).
 */
export async function replayMonitoring(
  sql: Sql,
  studentId: number,
  evidence: StudentEvidence,
  decisionEvents: readonly RecordedEvent[],
): Promise<MonitoringReplay> {
  const [organizationId, trendRows, alertRows] = await Promise.all([
    userOrganization(sql, studentId),
    sql<TrendRow[]>`
      select academic_year, decision, do_not_decide_yet, hold_reason, rule_id, rule_set_version, goal_line, trend,
             probes, evidence_event_ids::text[] as evidence_event_ids, void_event_ids::text[] as void_event_ids,
             trend_decision_id::text
      from dec_trends where student_id = ${studentId}`,
    sql<AlertRow[]>`
      select alert_id::text, academic_year, alert_kind, anchor_attempt_id::text, status, close_reason
      from dec_alerts where student_id = ${studentId}`,
  ]);
  const pinned = new Map<string, string>();
  const named = new Map<string, MonitoringAlertChanged>();
  for (const e of typedDecisionEvents(decisionEvents)) {
    if (e.type === TREND_DECIDED) pinned.set(e.data.academicYear, e.data.ruleSetVersion);
    if (isOfType(...ALERT_EVENT_TYPES)(e)) {
      const d = e.data;
      named.set(d.alertId, d);
    }
  }
  const derivedTrends = new Map<string, ReplayedTrend | null>();
  const derivedAlerts = new Map<string, { academicYear: string; alert: ReplayedAlert }>();
  const years = new Set<string>([...pinned.keys(), ...trendRows.map((r) => r.academic_year)]);
  for (const version of new Set([CURRENT_RULE_SET.version, ...pinned.values()])) {
    const rules = RULE_SETS.get(version);
    if (!rules) continue; // a version no longer published derives nothing: its years drift loudly
    for (const input of await monitoringInputsOf(sql, evidence, organizationId, rules)) {
      years.add(input.academicYear);
      if ((pinned.get(input.academicYear) ?? CURRENT_RULE_SET.version) !== version) continue;
      const { trend, alerts } = decideMonitoring(input, rules);
      const { academicYear: _y, ...rest } = trend;
      derivedTrends.set(input.academicYear, {
        ...JSON.parse(JSON.stringify(rest)),
        trendDecisionId: trendDecisionIdOf(studentId, trend),
      });
      for (const a of alerts) {
        const alertId = alertIdOf(studentId, a.alertKind, a.anchorAttemptId);
        derivedAlerts.set(alertId, {
          academicYear: a.academicYear,
          alert: {
            alertKind: a.alertKind,
            anchorAttemptId: a.anchorAttemptId,
            status: a.status,
            closeReason: a.closeReason,
          },
        });
      }
    }
  }
  const trends: TrendReplay[] = [...years].sort().map((academicYear) => {
    const row = trendRows.find((r) => r.academic_year === academicYear);
    const stored: ReplayedTrend | null = row
      ? {
          decision: row.decision,
          doNotDecideYet: row.do_not_decide_yet,
          holdReason: row.hold_reason,
          ruleId: row.rule_id,
          ruleSetVersion: row.rule_set_version,
          goalLine: row.goal_line,
          trend: row.trend,
          probes: row.probes,
          evidenceEventIds: [...row.evidence_event_ids],
          voidEventIds: [...row.void_event_ids],
          trendDecisionId: row.trend_decision_id,
        }
      : null;
    const derived = derivedTrends.get(academicYear) ?? null;
    return { academicYear, derived, stored, drift: driftOf(TREND_REPLAY_FIELDS, derived, stored) };
  });
  const alertIds = new Set([...named.keys(), ...alertRows.map((r) => r.alert_id)]);
  for (const [id, d] of derivedAlerts) if (d.alert.status !== 'closed') alertIds.add(id);
  const alerts: AlertReplay[] = [...alertIds].sort().map((alertId) => {
    const row = alertRows.find((r) => r.alert_id === alertId);
    const stored: ReplayedAlert | null = row
      ? {
          alertKind: row.alert_kind,
          anchorAttemptId: row.anchor_attempt_id,
          status: row.status,
          closeReason: row.close_reason,
        }
      : null;
    const found = derivedAlerts.get(alertId);
    // Named by the stream but no longer raised by the evidence: closed by the void that took its probe.
    const event = named.get(alertId);
    const derived: ReplayedAlert | null =
      found?.alert ??
      (event
        ? {
            alertKind: event.alertKind,
            anchorAttemptId: event.anchorAttemptId,
            status: 'closed',
            closeReason: 'probe_voided',
          }
        : null);
    const academicYear = row?.academic_year ?? found?.academicYear ?? event?.academicYear ?? '';
    return { alertId, academicYear, derived, stored, drift: driftOf(ALERT_REPLAY_FIELDS, derived, stored) };
  });
  return { trends, alerts };
}

export const monitoringHasDrift = (m: MonitoringReplay) =>
  m.trends.some((t) => t.drift.length > 0) || m.alerts.some((a) => a.drift.length > 0);
