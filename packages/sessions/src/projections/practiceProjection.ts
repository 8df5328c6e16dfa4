import { defineProjection, eventsOfType } from '@qiraa/projections';
import { SESSION_ANSWER_RECORDED, SESSION_SLOT_COMPLETED, type SessionEvent } from '../events';

/**
 * `ses_slot_answers` (one row per answer, write-once) and `ses_slot_progress` (answered of total per
 * recipient, `completed_at` from the completion). Idempotent: answers by id, progress recounted from the
 * answers table, so a batch applied twice or a rebuild gives the same rows.
 */
export const practiceProjection = defineProjection<SessionEvent>({
  name: 'sessions_practice',
  version: 1,
  handles: [SESSION_ANSWER_RECORDED, SESSION_SLOT_COMPLETED],
  tables: ['ses_slot_answers', 'ses_slot_progress'],
  async applyBatch({ sql, table }, events) {
    const answers = eventsOfType(events, SESSION_ANSWER_RECORDED).map((e) => e.data);
    if (answers.length > 0) {
      await sql`
        insert into ${sql(table('ses_slot_answers'))} (answer_id, session_id, student_id, item_id, sub_skill_id,
          position, selected_option_key, correct, answered_at)
        select r."answerId", r."sessionId", r."studentId", r."itemId", r."subSkillId", r.position,
               r."selectedOptionKey", r.correct, r."answeredAt"
        from jsonb_to_recordset(${sql.json(answers as never)}) as r("answerId" uuid, "sessionId" text,
          "studentId" bigint, "itemId" text, "subSkillId" text, position int, "selectedOptionKey" text,
          correct boolean, "answeredAt" timestamptz)
        on conflict do nothing`;
      const slots = [...new Map(answers.map((a) => [`${a.sessionId}|${a.studentId}`, a])).values()].map((a) => ({
        sessionId: a.sessionId,
        studentId: a.studentId,
        total: a.total,
      }));
      await sql`
        insert into ${sql(table('ses_slot_progress'))} (session_id, student_id, answered, correct, total)
        select r."sessionId", r."studentId", c.answered, c.correct, r.total
        from jsonb_to_recordset(${sql.json(slots as never)}) as r("sessionId" text, "studentId" bigint, total int)
        cross join lateral (
          select count(*)::int as answered, count(*) filter (where a.correct)::int as correct
          from ${sql(table('ses_slot_answers'))} a
          where a.session_id = r."sessionId" and a.student_id = r."studentId") c
        on conflict (session_id, student_id) do update
          set answered = excluded.answered, correct = excluded.correct, total = excluded.total`;
    }
    const done = eventsOfType(events, SESSION_SLOT_COMPLETED).map((e) => e.data);
    if (done.length > 0) {
      await sql`
        update ${sql(table('ses_slot_progress'))} p set completed_at = r."completedAt"
        from jsonb_to_recordset(${sql.json(done as never)}) as r("sessionId" text, "studentId" bigint,
          "completedAt" timestamptz)
        where p.session_id = r."sessionId" and p.student_id = r."studentId" and p.completed_at is null`;
    }
  },
});
