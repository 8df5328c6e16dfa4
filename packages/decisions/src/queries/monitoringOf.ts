import type { AnySql } from '@qiraa/db';
import { classRoster } from '@qiraa/identity';
import type { MonitoringQuery, MonitoringResponse } from '../schemas/monitoringSchemas';
import { DO_NOT_DECIDE_YET, safeStopCode } from '../schemas/safeStopCode';

interface TrendRow {
  academic_year: string;
  decision: MonitoringResponse['decision'];
  do_not_decide_yet: boolean;
  hold_reason: MonitoringResponse['holdReason'];
  rule_id: string;
  rule_set_version: string;
  goal_line: MonitoringResponse['goalLine'];
  trend: MonitoringResponse['trend'];
  probes: MonitoringResponse['probes'];
  trend_decision_id: string;
  decided_at: Date;
}

interface AlertRow {
  alert_id: string;
  alert_kind: MonitoringResponse['alerts'][number]['alertKind'];
  status: MonitoringResponse['alerts'][number]['status'];
  close_reason: MonitoringResponse['alerts'][number]['closeReason'];
  rule_id: string;
  academic_year: string;
  anchor_attempt_id: string;
  detail: MonitoringResponse['alerts'][number]['detail'];
  opened_at: Date;
  changed_at: Date;
}

/**
 * A student's progress monitoring of one academic year (the one asked for, else the newest with a trend
 * decision) from `dec_trends` and `dec_alerts`: the goal line, the probes, the trend and its decision or the
 * safe stop, and the year's open alerts. Nothing decided yet: the safe stop `no_baseline` (a 200).
 */
export async function monitoringOf(
  sql: AnySql,
  studentId: number,
  query: MonitoringQuery = {},
): Promise<MonitoringResponse> {
  const years = (
    await sql<{ academic_year: string }[]>`
      select academic_year from dec_trends where student_id = ${studentId} order by academic_year desc`
  ).map((r) => r.academic_year);
  const year = query.academicYear ?? years[0] ?? null;
  const [row] = year
    ? await sql<TrendRow[]>`
        select academic_year, decision, do_not_decide_yet, hold_reason, rule_id, rule_set_version, goal_line, trend,
               probes, trend_decision_id::text, decided_at
        from dec_trends where student_id = ${studentId} and academic_year = ${year}`
    : [];
  const alerts = year
    ? await sql<AlertRow[]>`
        select alert_id::text, alert_kind, status, close_reason, rule_id, academic_year,
               anchor_attempt_id::text, detail, opened_at, changed_at
        from dec_alerts where student_id = ${studentId} and academic_year = ${year} and status <> 'closed'
        order by opened_at, alert_id`
    : [];
  const base = {
    studentId,
    academicYear: year,
    years,
    alerts: alerts.map((a) => ({
      alertId: a.alert_id,
      alertKind: a.alert_kind,
      status: a.status,
      closeReason: a.close_reason,
      ruleId: a.rule_id,
      academicYear: a.academic_year,
      anchorAttemptId: a.anchor_attempt_id,
      detail: a.detail,
      openedAt: a.opened_at.toISOString(),
      changedAt: a.changed_at.toISOString(),
    })),
  };
  if (!row) {
    return {
      ...base,
      decision: null,
      safeStop: 'do_not_decide_yet',
      code: DO_NOT_DECIDE_YET,
      holdReason: 'no_baseline',
      doNotDecideYet: true,
      ruleId: null,
      ruleSetVersion: null,
      trendDecisionId: null,
      decidedAt: null,
      goalLine: null,
      trend: null,
      probes: [],
    };
  }
  return {
    ...base,
    decision: row.decision,
    safeStop: row.do_not_decide_yet ? 'do_not_decide_yet' : null,
    code: safeStopCode(row.do_not_decide_yet),
    holdReason: row.hold_reason,
    doNotDecideYet: row.do_not_decide_yet,
    ruleId: row.rule_id,
    ruleSetVersion: row.rule_set_version,
    trendDecisionId: row.trend_decision_id,
    decidedAt: row.decided_at.toISOString(),
    goalLine: row.goal_line,
    trend: row.trend,
    probes: row.probes,
  };
}

/**
 * The students with an open (or escalated) acute_regression alert, for the clusters' `individualReview`:
 * of a class (its active students) or of the given students. Ascending student ids, each with its alert ids.
 */
export async function openAcuteRegressionsOf(
  sql: AnySql,
  scope: { classId: string } | { studentIds: readonly number[] },
): Promise<{ studentId: number; alertIds: string[] }[]> {
  // A class's: its active roster (identity's read), then the same query as for named students.
  const studentIds = 'classId' in scope ? await classRoster(sql, scope.classId) : scope.studentIds;
  const rows = await sql<{ student_id: string; alert_ids: string[] }[]>`
    select student_id::text, array_agg(alert_id::text order by alert_id) as alert_ids
    from dec_alerts
    where student_id = any(${sql.array(studentIds.map(String), 20)}::bigint[])
      and alert_kind = 'acute_regression' and status <> 'closed'
    group by student_id order by student_id`;
  return rows.map((r) => ({ studentId: Number(r.student_id), alertIds: r.alert_ids }));
}
