import { defineProjection, eventsOfType } from '@qiraa/projections';
import { type DecisionEvent, TRAINING_LEVEL_SEED_RETRACTED, TRAINING_LEVEL_SEEDED } from '../events';

/**
 * `dec_training_seeds`: the standing seed event per student, academic year, window and skill (a seed, or the
 * retraction after it). One statement per batch: the batch's newest event of each key upserts, and a row moves
 * only to a higher stream version, so a batch applied twice (inline, then the runner) changes nothing.
 */
export const trainingSeedsProjection = defineProjection<DecisionEvent>({
  name: 'decisions_training_seeds',
  version: 1,
  handles: [TRAINING_LEVEL_SEEDED, TRAINING_LEVEL_SEED_RETRACTED],
  tables: ['dec_training_seeds'],
  async applyBatch({ sql, table }, events) {
    const latest = new Map<string, { version: bigint; row: Record<string, unknown> }>();
    const keep = (
      d: { studentId: number; academicYear: string; window: string; skillId: string },
      version: bigint,
      row: Record<string, unknown>,
    ) => {
      const key = `${d.studentId}|${d.academicYear}|${d.window}|${d.skillId}`;
      const seen = latest.get(key);
      if (!seen || seen.version < version) latest.set(key, { version, row });
    };
    const head = (d: { studentId: number; academicYear: string; window: string; skillId: string }) => ({
      student_id: d.studentId,
      academic_year: d.academicYear,
      evidence_window: d.window,
      skill_id: d.skillId,
    });
    for (const e of eventsOfType(events, TRAINING_LEVEL_SEEDED)) {
      const d = e.data;
      keep(d, e.streamVersion, {
        ...head(d),
        seed_id: e.eventId,
        level: d.level,
        measure_code: d.measureCode,
        session_id: d.sessionId,
        provisional: d.provisional,
        rule_id: d.ruleId,
        rule_set_version: d.ruleSetVersion,
        evidence_event_ids: d.evidenceEventIds,
        retracted_seed_id: null,
        decided_at: d.decidedAt,
        stream_version: e.streamVersion.toString(),
      });
    }
    for (const e of eventsOfType(events, TRAINING_LEVEL_SEED_RETRACTED)) {
      const d = e.data;
      keep(d, e.streamVersion, {
        ...head(d),
        seed_id: null,
        level: null,
        measure_code: d.measureCode,
        session_id: null,
        provisional: null,
        rule_id: d.ruleId,
        rule_set_version: d.ruleSetVersion,
        evidence_event_ids: d.evidenceEventIds,
        retracted_seed_id: d.retractedSeedId,
        decided_at: d.decidedAt,
        stream_version: e.streamVersion.toString(),
      });
    }
    if (latest.size === 0) return;
    const t = sql(table('dec_training_seeds'));
    await sql`
      insert into ${t} as s (student_id, academic_year, evidence_window, skill_id, seed_id, level, measure_code,
        session_id, provisional, rule_id, rule_set_version, evidence_event_ids, retracted_seed_id, decided_at,
        stream_version)
      select r.student_id, r.academic_year, r.evidence_window, r.skill_id, r.seed_id, r.level, r.measure_code,
             r.session_id, r.provisional, r.rule_id, r.rule_set_version,
             array(select jsonb_array_elements_text(r.evidence_event_ids))::uuid[],
             r.retracted_seed_id, r.decided_at, r.stream_version
      from jsonb_to_recordset(${sql.json([...latest.values()].map((l) => l.row) as never)}) as r(student_id bigint,
        academic_year text, evidence_window text, skill_id text, seed_id uuid, level smallint, measure_code text,
        session_id uuid, provisional boolean, rule_id text, rule_set_version text, evidence_event_ids jsonb,
        retracted_seed_id uuid, decided_at timestamptz, stream_version bigint)
      on conflict (student_id, academic_year, evidence_window, skill_id) do update set
        seed_id = excluded.seed_id, level = excluded.level, measure_code = excluded.measure_code,
        session_id = excluded.session_id, provisional = excluded.provisional, rule_id = excluded.rule_id,
        rule_set_version = excluded.rule_set_version, evidence_event_ids = excluded.evidence_event_ids,
        retracted_seed_id = excluded.retracted_seed_id, decided_at = excluded.decided_at,
        stream_version = excluded.stream_version
      where s.stream_version < excluded.stream_version`;
  },
});
