import { defineProjection, eventsOfType } from '@qiraa/projections';
import {
  type AssessmentEvent,
  ATTEMPT_VOIDED,
  SITTING_ANSWER_RECORDED,
  SITTING_COMPLETED,
  SITTING_STARTED,
  SITTING_STOPPED,
} from '../events';
import type { SittingAnswerRecorded } from '../events/sittingTypes';

/**
 * `asm_sittings`: one row per digital sitting (the state route, the item review, `sittingResultOf` and the
 * answer command read it). Up to five statements per batch, pipelined (sent together, run in order on the
 * batch's one connection). Answers merge by plan position with the stored one winning, an end moves a row
 * only out of `in_progress` (the first end wins, whoever wrote it: this context, a void or a window close), a
 * void only fills empty void columns and `stream_version` only grows, so a batch applied twice changes nothing.
 *
 * `stream_version` is the highest stream version among the sitting's events applied to the row: the row is the
 * fold of its stream up to that version (every writer of a sitting stream applies this projection inline), so
 * the answer command decides on the row and appends expecting that version.
 */
export const sittingsProjection = defineProjection<AssessmentEvent>({
  name: 'assessment_sittings',
  version: 2,
  handles: [SITTING_STARTED, SITTING_ANSWER_RECORDED, SITTING_COMPLETED, SITTING_STOPPED, ATTEMPT_VOIDED],
  tables: ['asm_sittings'],
  async applyBatch({ sql, table }, events) {
    const t = sql(table('asm_sittings'));
    const started = eventsOfType(events, SITTING_STARTED).map((e) => ({
      attempt_id: e.data.attemptId,
      organization_id: e.data.organizationId,
      class_id: e.data.classId,
      student_id: e.data.studentId,
      academic_year: e.data.academicYear,
      evidence_window: e.data.window,
      mode: e.data.mode,
      started: e.data,
      started_at: e.data.startedAt,
      stream_version: String(e.streamVersion),
    }));
    // Per attempt, the batch's answers as one object keyed by position (the first one of a position wins).
    const answers = new Map<string, Record<string, SittingAnswerRecorded>>();
    for (const e of eventsOfType(events, SITTING_ANSWER_RECORDED)) {
      const byPosition = answers.get(e.data.attemptId) ?? {};
      byPosition[String(e.data.position)] ??= e.data;
      answers.set(e.data.attemptId, byPosition);
    }
    const ends = new Map<string, { attempt_id: string; status: string; ended_at: string; end_reason: string }>();
    for (const e of eventsOfType(events, SITTING_COMPLETED, SITTING_STOPPED)) {
      if (ends.has(e.data.attemptId)) continue;
      ends.set(e.data.attemptId, {
        attempt_id: e.data.attemptId,
        status: e.type === SITTING_COMPLETED ? 'done' : 'stopped',
        ended_at: e.data.at,
        end_reason: e.type === SITTING_COMPLETED ? 'completed' : e.data.reason,
      });
    }
    const voided = eventsOfType(events, ATTEMPT_VOIDED)
      .filter((e) => e.data.kind === 'digital_sitting')
      .map((e) => ({ attempt_id: e.data.attemptId, void_id: e.data.voidId, voided_at: e.data.at }));

    // Per attempt, the highest stream version of the batch's events (after the statements that apply them).
    const versions = new Map<string, bigint>();
    for (const e of events) {
      const attemptId = e.data.attemptId;
      if ((versions.get(attemptId) ?? -1n) < e.streamVersion) versions.set(attemptId, e.streamVersion);
    }

    const statements: Promise<unknown>[] = [];
    if (started.length > 0)
      statements.push(sql`
        insert into ${t} (attempt_id, organization_id, class_id, student_id, academic_year, evidence_window, mode,
          started, status, started_at, stream_version)
        select r.attempt_id, r.organization_id, r.class_id, r.student_id, r.academic_year, r.evidence_window, r.mode,
               r.started, 'in_progress', r.started_at, r.stream_version
        from jsonb_to_recordset(${sql.json(started as never)}) as r(attempt_id uuid, organization_id text,
          class_id text, student_id bigint, academic_year text, evidence_window text, mode text, started jsonb,
          started_at timestamptz, stream_version bigint)
        on conflict (attempt_id) do nothing`);
    if (answers.size > 0) {
      const rows = [...answers].map(([attempt_id, byPosition]) => ({ attempt_id, answers: byPosition }));
      statements.push(sql`
        update ${t} s set answers = r.answers || s.answers
        from jsonb_to_recordset(${sql.json(rows as never)}) as r(attempt_id uuid, answers jsonb)
        where s.attempt_id = r.attempt_id and s.status = 'in_progress'`);
    }
    if (ends.size > 0)
      statements.push(sql`
        update ${t} s set status = r.status, ended_at = r.ended_at, end_reason = r.end_reason
        from jsonb_to_recordset(${sql.json([...ends.values()] as never)})
             as r(attempt_id uuid, status text, ended_at timestamptz, end_reason text)
        where s.attempt_id = r.attempt_id and s.status = 'in_progress'`);
    if (voided.length > 0)
      statements.push(sql`
        update ${t} s set void_id = r.void_id, voided_at = r.voided_at
        from jsonb_to_recordset(${sql.json(voided as never)}) as r(attempt_id uuid, void_id bigint, voided_at timestamptz)
        where s.attempt_id = r.attempt_id and s.void_id is null`);
    const moved = [...versions].map(([attempt_id, v]) => ({ attempt_id, v: String(v) }));
    statements.push(sql`
      update ${t} s set stream_version = r.v
      from jsonb_to_recordset(${sql.json(moved as never)}) as r(attempt_id uuid, v bigint)
      where s.attempt_id = r.attempt_id and (s.stream_version is null or s.stream_version < r.v)`);
    // One connection (the command's or the runner's transaction): sent together, run in this order.
    await Promise.all(statements);
  },
});
