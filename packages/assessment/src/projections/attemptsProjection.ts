import { defineProjection, eventsOfType } from '@qiraa/projections';
import {
  type AssessmentEvent,
  ATTEMPT_OPENING_EVENTS,
  ATTEMPT_VOIDED,
  ORAL_READING_STOPPED,
  SITTING_COMPLETED,
  SITTING_STOPPED,
  WORD_LIST_READ,
} from '../events';

interface EndRow {
  attempt_id: string;
  status: 'done' | 'stopped';
  ended_at: string;
  end_reason: string;
  result: unknown;
  event_id: string;
}

/**
 * `asm_attempts`: one row per attempt of any kind (the teacher page, reach checks and voids read it).
 * Three statements per batch, pipelined: insert the opened attempts, end the ended ones, mark the voided ones. An end
 * moves a row only out of `in_progress` and a void only fills empty void columns, so applying an event a
 * second time (inline, then the runner) or a batch again changes nothing.
 */
export const attemptsProjection = defineProjection<AssessmentEvent>({
  name: 'assessment_attempts',
  version: 1,
  handles: [...ATTEMPT_OPENING_EVENTS, SITTING_COMPLETED, SITTING_STOPPED, ORAL_READING_STOPPED, ATTEMPT_VOIDED],
  tables: ['asm_attempts'],
  async applyBatch({ sql, table }, events) {
    const opened = eventsOfType(events, ...ATTEMPT_OPENING_EVENTS).map((e) => ({
      attempt_id: e.data.attemptId,
      kind: e.data.kind,
      cell: e.data.cell,
      organization_id: e.data.organizationId,
      school_id: e.data.schoolId,
      class_id: e.data.classId,
      student_id: e.data.studentId,
      grade: e.data.grade,
      academic_year: e.data.academicYear,
      evidence_window: e.data.window,
      // A word-list read is recorded whole: it opens already done.
      status: e.type === WORD_LIST_READ ? 'done' : 'in_progress',
      started_at: e.data.startedAt,
      started_by: e.data.startedBy,
      ended_at: e.type === WORD_LIST_READ ? e.data.startedAt : null,
      end_reason: e.type === WORD_LIST_READ ? 'completed' : null,
      result: e.type === WORD_LIST_READ ? (e.data.result ?? null) : null,
      supersedes_void_id: e.data.supersedesVoidId,
      last_event_id: e.eventId,
    }));
    const ended: EndRow[] = eventsOfType(events, SITTING_COMPLETED, SITTING_STOPPED, ORAL_READING_STOPPED).map((e) => ({
      attempt_id: e.data.attemptId,
      status: e.type === SITTING_STOPPED ? 'stopped' : 'done',
      ended_at: e.data.at,
      end_reason: e.type === SITTING_STOPPED ? e.data.reason : 'completed',
      result: e.data.result ?? null,
      event_id: e.eventId,
    }));
    const voided = eventsOfType(events, ATTEMPT_VOIDED).map((e) => ({
      attempt_id: e.data.attemptId,
      voided_at: e.data.at,
      void_id: e.data.voidId,
      void_reason: e.data.reason,
      event_id: e.eventId,
    }));
    const t = sql(table('asm_attempts'));
    // Sent together on the batch's one connection; they run in this order.
    const statements: Promise<unknown>[] = [];
    if (opened.length > 0)
      statements.push(sql`
        insert into ${t} (attempt_id, kind, cell, organization_id, school_id, class_id, student_id, grade,
          academic_year, evidence_window, status, started_at, started_by, ended_at, end_reason, result,
          supersedes_void_id, last_event_id)
        select r.attempt_id, r.kind, r.cell, r.organization_id, r.school_id, r.class_id, r.student_id, r.grade,
               r.academic_year, r.evidence_window, r.status, r.started_at, r.started_by, r.ended_at,
               r.end_reason, r.result, r.supersedes_void_id, r.last_event_id
        from jsonb_to_recordset(${sql.json(opened as never)}) as r(attempt_id uuid, kind text, cell text,
          organization_id text, school_id text, class_id text, student_id bigint, grade int, academic_year text,
          evidence_window text, status text, started_at timestamptz, started_by bigint, ended_at timestamptz,
          end_reason text, result jsonb, supersedes_void_id bigint, last_event_id uuid)
        on conflict (attempt_id) do nothing`);
    if (ended.length > 0)
      statements.push(sql`
        update ${t} a set status = r.status, ended_at = r.ended_at, end_reason = r.end_reason,
               result = r.result, last_event_id = r.event_id
        from (select distinct on (attempt_id) * from jsonb_to_recordset(${sql.json(ended as never)})
              as x(attempt_id uuid, status text, ended_at timestamptz, end_reason text, result jsonb,
                    event_id uuid)) r
        where a.attempt_id = r.attempt_id and a.status = 'in_progress'`);
    if (voided.length > 0)
      statements.push(sql`
        update ${t} a set voided_at = r.voided_at, void_id = r.void_id, void_reason = r.void_reason,
               last_event_id = r.event_id
        from jsonb_to_recordset(${sql.json(voided as never)})
             as r(attempt_id uuid, voided_at timestamptz, void_id bigint, void_reason text, event_id uuid)
        where a.attempt_id = r.attempt_id and a.void_id is null`);
    await Promise.all(statements);
  },
});
