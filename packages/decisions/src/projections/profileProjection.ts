import { defineProjection, eventsOfType } from '@qiraa/projections';
import type { DecisionEvent } from '../events';
import { PROFILE_EVENT_TYPES, PROFILE_RESOLVED, RECOMMENDATION_EVENT_TYPES } from '../events/profileEvents';

/**
 * `dec_profiles` (the latest profile per student, academic year and window) and `dec_recommendations` (the
 * latest recommendation of each). One statement per table per batch: the batch's newest event of each key
 * upserts, and a row moves only to a higher stream version, so a batch applied twice (inline, then the runner)
 * or out of order changes nothing.
 */
export const profileProjection = defineProjection<DecisionEvent>({
  name: 'decisions_profiles',
  version: 1,
  handles: PROFILE_EVENT_TYPES,
  tables: ['dec_profiles', 'dec_recommendations'],
  async applyBatch({ sql, table }, events) {
    const profiles = new Map<string, Record<string, unknown>>();
    for (const e of eventsOfType(events, PROFILE_RESOLVED)) {
      const d = e.data;
      const key = `${d.studentId}|${d.academicYear}|${d.window}`;
      const seen = profiles.get(key);
      if (seen && BigInt(seen.stream_version as string) > e.streamVersion) continue;
      profiles.set(key, {
        student_id: d.studentId,
        academic_year: d.academicYear,
        evidence_window: d.window,
        profile_code: d.profileCode,
        profile_name: d.profileName,
        do_not_decide_yet: d.doNotDecideYet,
        groups: d.groups,
        domains: d.domains,
        missing_domains: d.missingDomains,
        rule_set_version: d.ruleSetVersion,
        skill_status_decision_ids: d.skillStatusDecisionIds,
        profile_decision_id: e.eventId,
        decided_at: d.decidedAt,
        stream_version: e.streamVersion.toString(),
      });
    }
    const recommendations = new Map<string, Record<string, unknown>>();
    for (const e of eventsOfType(events, ...RECOMMENDATION_EVENT_TYPES)) {
      const d = e.data;
      const key = `${d.studentId}|${d.academicYear}|${d.window}`;
      const seen = recommendations.get(key);
      if (seen && BigInt(seen.stream_version as string) > e.streamVersion) continue;
      recommendations.set(key, {
        student_id: d.studentId,
        academic_year: d.academicYear,
        evidence_window: d.window,
        outcome: d.outcome,
        rule_id: d.ruleId,
        profile_code: d.profileCode,
        bundle_id: d.bundleId,
        anchor_skill_group: d.anchorSkillGroup,
        anchor_skill_id: d.anchorSkillId,
        scaffold_tier: d.scaffoldTier,
        sufficient_data: d.sufficientData,
        next_data_action: d.nextDataAction,
        next_data_steps: d.nextDataSteps,
        rule_set_version: d.ruleSetVersion,
        recommendation_id: e.eventId,
        profile_decision_id: d.profileDecisionId,
        decided_at: d.decidedAt,
        stream_version: e.streamVersion.toString(),
      });
    }
    if (profiles.size > 0) {
      await sql`
        insert into ${sql(table('dec_profiles'))} as s (student_id, academic_year, evidence_window, profile_code,
          profile_name, do_not_decide_yet, groups, domains, missing_domains, rule_set_version,
          skill_status_decision_ids, profile_decision_id, decided_at, stream_version)
        select r.student_id, r.academic_year, r.evidence_window, r.profile_code, r.profile_name, r.do_not_decide_yet,
               r.groups, r.domains, array(select jsonb_array_elements_text(r.missing_domains)), r.rule_set_version,
               array(select jsonb_array_elements_text(r.skill_status_decision_ids))::uuid[],
               r.profile_decision_id, r.decided_at, r.stream_version
        from jsonb_to_recordset(${sql.json([...profiles.values()] as never)}) as r(student_id bigint,
          academic_year text, evidence_window text, profile_code text, profile_name text, do_not_decide_yet boolean,
          groups jsonb, domains jsonb, missing_domains jsonb, rule_set_version text, skill_status_decision_ids jsonb,
          profile_decision_id uuid, decided_at timestamptz, stream_version bigint)
        on conflict (student_id, academic_year, evidence_window) do update set
          profile_code = excluded.profile_code, profile_name = excluded.profile_name,
          do_not_decide_yet = excluded.do_not_decide_yet, groups = excluded.groups, domains = excluded.domains,
          missing_domains = excluded.missing_domains, rule_set_version = excluded.rule_set_version,
          skill_status_decision_ids = excluded.skill_status_decision_ids,
          profile_decision_id = excluded.profile_decision_id, decided_at = excluded.decided_at,
          stream_version = excluded.stream_version
        where s.stream_version < excluded.stream_version`;
    }
    if (recommendations.size > 0) {
      await sql`
        insert into ${sql(table('dec_recommendations'))} as s (student_id, academic_year, evidence_window, outcome,
          rule_id, profile_code, bundle_id, anchor_skill_group, anchor_skill_id, scaffold_tier, sufficient_data,
          next_data_action, next_data_steps, rule_set_version, recommendation_id, profile_decision_id, decided_at,
          stream_version)
        select r.student_id, r.academic_year, r.evidence_window, r.outcome, r.rule_id, r.profile_code, r.bundle_id,
               r.anchor_skill_group, r.anchor_skill_id, r.scaffold_tier, r.sufficient_data, r.next_data_action,
               r.next_data_steps, r.rule_set_version, r.recommendation_id, r.profile_decision_id, r.decided_at,
               r.stream_version
        from jsonb_to_recordset(${sql.json([...recommendations.values()] as never)}) as r(student_id bigint,
          academic_year text, evidence_window text, outcome text, rule_id text, profile_code text, bundle_id text,
          anchor_skill_group text, anchor_skill_id text, scaffold_tier text, sufficient_data boolean,
          next_data_action jsonb, next_data_steps jsonb, rule_set_version text, recommendation_id uuid,
          profile_decision_id uuid, decided_at timestamptz, stream_version bigint)
        on conflict (student_id, academic_year, evidence_window) do update set
          outcome = excluded.outcome, rule_id = excluded.rule_id, profile_code = excluded.profile_code,
          bundle_id = excluded.bundle_id, anchor_skill_group = excluded.anchor_skill_group,
          anchor_skill_id = excluded.anchor_skill_id, scaffold_tier = excluded.scaffold_tier,
          sufficient_data = excluded.sufficient_data, next_data_action = excluded.next_data_action,
          next_data_steps = excluded.next_data_steps, rule_set_version = excluded.rule_set_version,
          recommendation_id = excluded.recommendation_id, profile_decision_id = excluded.profile_decision_id,
          decided_at = excluded.decided_at, stream_version = excluded.stream_version
        where s.stream_version < excluded.stream_version`;
    }
  },
});
