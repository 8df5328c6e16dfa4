import { defineProjection, eventsOfType } from '@qiraa/projections';
import { type DecisionEvent, SKILL_STATUS_DECIDED } from '../events';

/**
 * `dec_skill_status`: the latest skill-status decision per student, academic year, window and sub-skill. One
 * statement per batch: the batch's newest decision of each key (by stream version) upserts, and an existing
 * row moves only to a higher stream version, so a batch applied twice (inline, then the runner) or out of
 * order changes nothing.
 */
export const skillStatusProjection = defineProjection<DecisionEvent>({
  name: 'decisions_skill_status',
  version: 1,
  handles: [SKILL_STATUS_DECIDED],
  tables: ['dec_skill_status'],
  async applyBatch({ sql, table }, events) {
    const latest = new Map<string, Record<string, unknown>>();
    for (const e of eventsOfType(events, SKILL_STATUS_DECIDED)) {
      const d = e.data;
      const key = `${d.studentId}|${d.academicYear}|${d.window}|${d.subSkillId}`;
      const row = {
        student_id: d.studentId,
        academic_year: d.academicYear,
        evidence_window: d.window,
        sub_skill_id: d.subSkillId,
        status: d.status,
        adr_rule_id: d.adrRuleId,
        ssr_rule_id: d.ssrRuleId,
        do_not_decide_yet: d.doNotDecideYet,
        hold_reason: d.holdReason,
        rule_set_version: d.ruleSetVersion,
        evidence: d.evidence,
        evidence_event_ids: d.evidenceEventIds,
        void_event_ids: d.voidEventIds,
        decision_id: e.eventId,
        supersedes_decision_id: d.supersedesDecisionId,
        decided_at: d.decidedAt,
        stream_version: e.streamVersion.toString(),
      };
      const seen = latest.get(key);
      if (!seen || BigInt(seen.stream_version as string) < e.streamVersion) latest.set(key, row);
    }
    if (latest.size === 0) return;
    const t = sql(table('dec_skill_status'));
    await sql`
      insert into ${t} as s (student_id, academic_year, evidence_window, sub_skill_id, status, adr_rule_id,
        ssr_rule_id, do_not_decide_yet, hold_reason, rule_set_version, evidence, evidence_event_ids, void_event_ids,
        decision_id, supersedes_decision_id, decided_at, stream_version)
      select r.student_id, r.academic_year, r.evidence_window, r.sub_skill_id, r.status, r.adr_rule_id,
             r.ssr_rule_id, r.do_not_decide_yet, r.hold_reason, r.rule_set_version, r.evidence,
             array(select jsonb_array_elements_text(r.evidence_event_ids))::uuid[],
             array(select jsonb_array_elements_text(r.void_event_ids))::uuid[],
             r.decision_id, r.supersedes_decision_id, r.decided_at, r.stream_version
      from jsonb_to_recordset(${sql.json([...latest.values()] as never)}) as r(student_id bigint, academic_year text,
        evidence_window text, sub_skill_id text, status text, adr_rule_id text, ssr_rule_id text,
        do_not_decide_yet boolean, hold_reason text, rule_set_version text, evidence jsonb, evidence_event_ids jsonb,
        void_event_ids jsonb, decision_id uuid, supersedes_decision_id uuid, decided_at timestamptz,
        stream_version bigint)
      on conflict (student_id, academic_year, evidence_window, sub_skill_id) do update set
        status = excluded.status, adr_rule_id = excluded.adr_rule_id, ssr_rule_id = excluded.ssr_rule_id,
        do_not_decide_yet = excluded.do_not_decide_yet, hold_reason = excluded.hold_reason,
        rule_set_version = excluded.rule_set_version, evidence = excluded.evidence,
        evidence_event_ids = excluded.evidence_event_ids, void_event_ids = excluded.void_event_ids,
        decision_id = excluded.decision_id, supersedes_decision_id = excluded.supersedes_decision_id,
        decided_at = excluded.decided_at, stream_version = excluded.stream_version
      where s.stream_version < excluded.stream_version`;
  },
});
