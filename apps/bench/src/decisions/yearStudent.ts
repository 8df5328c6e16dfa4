import { type AttemptKind, streams as evidenceStreams, type ScreeningWindow } from '@qiraa/assessment';
import { startSitting, voidAttempt } from '@qiraa/assessment/testing';
import type { Sql } from '@qiraa/db';
import { recomputeSkillStatus } from '@qiraa/decisions';
import { recordOrfProbe } from '@qiraa/decisions/testing';
import type { EventStore } from '@qiraa/eventstore';
import { ACADEMIC_YEAR, type WindowSchool } from './windowSchool';

type Deps = { sql: Sql; store: EventStore };

const DAY = 86_400_000;
/** Weekly oral-reading probes from September to the end of the year's school weeks. */
const PROBES = 36;
const SITTINGS_PER_WINDOW = 2;

export interface YearEvidence {
  studentId: number;
  sittings: number;
  probes: number;
  voids: number;
  evidenceEvents: number;
  decisionEvents: number;
}

/**
 * One student's full academic year, written as the commands write it and decided after each settling step as
 * the reactor would: two digital sittings in each of BOY, MOY and EOY (one of them voided), and a weekly
 * oral-reading probe for 36 weeks (rising about a word a week, with a sharp dip in week 20 and one probe
 * voided), so the decision stream holds skill statuses of three windows, band progressions, training-level
 * seeds, trend decisions and an alert's lifecycle.
 */
export async function yearStudent(deps: Deps, school: WindowSchool): Promise<YearEvidence> {
  const s = school.students[0]!;
  const place = { organizationId: school.organizationId, schoolId: school.schoolId, ...s, academicYear: ACADEMIC_YEAR };
  let sittings = 0;
  let voids = 0;
  const windows: ScreeningWindow[] = ['BOY', 'MOY', 'EOY'];
  for (const window of windows) {
    for (let k = 0; k < SITTINGS_PER_WINDOW; k++) {
      const open = await startSitting(deps, { ...place, window });
      for (let p = 0; p < 6 + 2 * k; p++) await open.answer(p);
      await open.complete();
      sittings++;
      if (window === 'MOY' && k === 0) {
        await voidAttempt(deps.sql, deps.store, 'digital_sitting', open.attemptId);
        voids++;
      }
    }
    await recomputeSkillStatus(deps, s.studentId);
  }
  const first = Date.now() - PROBES * 7 * DAY;
  for (let w = 0; w < PROBES; w++) {
    const words = w === 20 ? 12 : 20 + w + (w % 3);
    const attemptId = await recordOrfProbe(deps, place, new Date(first + w * 7 * DAY), words);
    if (w === 30) {
      await voidAttempt(deps.sql, deps.store, 'oral_text', attemptId);
      voids++;
    }
    await recomputeSkillStatus(deps, s.studentId);
  }
  const attempts = await deps.sql<{ attempt_id: string; kind: AttemptKind }[]>`
    select attempt_id::text, kind from asm_attempts where student_id = ${s.studentId}`;
  const streamIds = attempts.map((a) => evidenceStreams.ofKind(a.kind, a.attempt_id));
  const [row] = await deps.sql<{ evidence: number; decisions: number }[]>`
    select (select count(*) from es_events where stream_id = any(${deps.sql.array(streamIds)}::text[]))::int as evidence,
           (select count(*) from es_events where stream_id = ${`decision-${s.studentId}`})::int as decisions`;
  return {
    studentId: s.studentId,
    sittings,
    probes: PROBES,
    voids,
    evidenceEvents: row!.evidence,
    decisionEvents: row!.decisions,
  };
}
