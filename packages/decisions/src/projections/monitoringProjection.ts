import { defineProjection, eventsOfType } from '@qiraa/projections';
import type { DecisionEvent } from '../events';
import { ALERT_EVENT_TYPES, MONITORING_EVENT_TYPES, TREND_DECIDED } from '../events/monitoringEvents';

/**
 * `dec_trends` (the latest trend decision per student and academic year) and `dec_alerts` (each alert where
 * its lifecycle stands). One statement per table per batch: the batch's newest event of each key upserts, and
 * a row moves only to a higher stream version, so a batch applied twice (inline, then the runner) or out of
 * order changes nothing.
 */
export const monitoringProjection = defineProjection<DecisionEvent>({
  name: 'decisions_monitoring',
  version: 1,
  handles: MONITORING_EVENT_TYPES,
  tables: ['dec_trends', 'dec_alerts'],
  async applyBatch({ sql, table }, events) {
    const trends = new Map<string, Record<string, unknown>>();
    for (const e of eventsOfType(events, TREND_DECIDED)) {
      const d = e.data;
      const key = `${d.studentId}|${d.academicYear}`;
      const seen = trends.get(key);
      if (seen && BigInt(seen.stream_version as string) > e.streamVersion) continue;
      trends.set(key, {
        student_id: d.studentId,
        academic_year: d.academicYear,
        decision: d.decision,
        do_not_decide_yet: d.doNotDecideYet,
        hold_reason: d.holdReason,
        rule_id: d.ruleId,
        rule_set_version: d.ruleSetVersion,
        goal_line: d.goalLine,
        trend: d.trend,
        probes: d.probes,
        evidence_event_ids: d.evidenceEventIds,
        void_event_ids: d.voidEventIds,
        trend_decision_id: e.eventId,
        supersedes_trend_decision_id: d.supersedesTrendDecisionId,
        decided_at: d.decidedAt,
        stream_version: e.streamVersion.toString(),
      });
    }
    const alerts = new Map<string, Record<string, unknown>>();
    const alertEvents = eventsOfType(events, ...ALERT_EVENT_TYPES);
    for (const e of alertEvents) {
      const d = e.data;
      const seen = alerts.get(d.alertId);
      if (seen && BigInt(seen.stream_version as string) > e.streamVersion) continue;
      alerts.set(d.alertId, {
        alert_id: d.alertId,
        student_id: d.studentId,
        academic_year: d.academicYear,
        alert_kind: d.alertKind,
        anchor_attempt_id: d.anchorAttemptId,
        status: d.status,
        close_reason: d.closeReason,
        rule_id: d.ruleId,
        rule_set_version: d.ruleSetVersion,
        detail: d.detail,
        evidence_event_ids: d.evidenceEventIds,
        // The opening's time when the batch holds it; an existing row keeps its own.
        opened_at: (seen?.opened_at as string | undefined) ?? d.changedAt,
        changed_at: d.changedAt,
        last_event_id: e.eventId,
        stream_version: e.streamVersion.toString(),
      });
    }
    if (trends.size > 0) {
      await sql`
        insert into ${sql(table('dec_trends'))} as s (student_id, academic_year, decision, do_not_decide_yet,
          hold_reason, rule_id, rule_set_version, goal_line, trend, probes, evidence_event_ids, void_event_ids,
          trend_decision_id, supersedes_trend_decision_id, decided_at, stream_version)
        select r.student_id, r.academic_year, r.decision, r.do_not_decide_yet, r.hold_reason, r.rule_id,
               r.rule_set_version, r.goal_line, r.trend, r.probes,
               array(select jsonb_array_elements_text(r.evidence_event_ids))::uuid[],
               array(select jsonb_array_elements_text(r.void_event_ids))::uuid[],
               r.trend_decision_id, r.supersedes_trend_decision_id, r.decided_at, r.stream_version
        from jsonb_to_recordset(${sql.json([...trends.values()] as never)}) as r(student_id bigint,
          academic_year text, decision text, do_not_decide_yet boolean, hold_reason text, rule_id text,
          rule_set_version text, goal_line jsonb, trend jsonb, probes jsonb, evidence_event_ids jsonb,
          void_event_ids jsonb, trend_decision_id uuid, supersedes_trend_decision_id uuid, decided_at timestamptz,
          stream_version bigint)
        on conflict (student_id, academic_year) do update set
          decision = excluded.decision, do_not_decide_yet = excluded.do_not_decide_yet,
          hold_reason = excluded.hold_reason, rule_id = excluded.rule_id, rule_set_version = excluded.rule_set_version,
          goal_line = excluded.goal_line, trend = excluded.trend, probes = excluded.probes,
          evidence_event_ids = excluded.evidence_event_ids, void_event_ids = excluded.void_event_ids,
          trend_decision_id = excluded.trend_decision_id,
          supersedes_trend_decision_id = excluded.supersedes_trend_decision_id, decided_at = excluded.decided_at,
          stream_version = excluded.stream_version
        where s.stream_version < excluded.stream_version`;
    }
    if (alerts.size > 0) {
      await sql`
        insert into ${sql(table('dec_alerts'))} as s (alert_id, student_id, academic_year, alert_kind,
          anchor_attempt_id, status, close_reason, rule_id, rule_set_version, detail, evidence_event_ids, opened_at,
          changed_at, last_event_id, stream_version)
        select r.alert_id, r.student_id, r.academic_year, r.alert_kind, r.anchor_attempt_id, r.status,
               r.close_reason, r.rule_id, r.rule_set_version, r.detail,
               array(select jsonb_array_elements_text(r.evidence_event_ids))::uuid[],
               r.opened_at, r.changed_at, r.last_event_id, r.stream_version
        from jsonb_to_recordset(${sql.json([...alerts.values()] as never)}) as r(alert_id uuid, student_id bigint,
          academic_year text, alert_kind text, anchor_attempt_id uuid, status text, close_reason text, rule_id text,
          rule_set_version text, detail jsonb, evidence_event_ids jsonb, opened_at timestamptz,
          changed_at timestamptz, last_event_id uuid, stream_version bigint)
        on conflict (alert_id) do update set
          status = excluded.status, close_reason = excluded.close_reason, rule_id = excluded.rule_id,
          rule_set_version = excluded.rule_set_version, detail = excluded.detail,
          evidence_event_ids = excluded.evidence_event_ids, changed_at = excluded.changed_at,
          last_event_id = excluded.last_event_id, stream_version = excluded.stream_version
        where s.stream_version < excluded.stream_version`;
    }
  },
});
