import { openWindowFor, startSitting } from '@qiraa/assessment/testing';
import type { Sql } from '@qiraa/db';
import { recordOrfProbe } from '@qiraa/decisions/testing';
import type { EventStore } from '@qiraa/eventstore';
import { bulkSchool, createBenchOrganization } from '../gamification/tenants';
import { runWriters } from '../measure';

export const ACADEMIC_YEAR = '2026-2027';

type Deps = { sql: Sql; store: EventStore };

export interface WindowSchool {
  organizationId: string;
  schoolId: string;
  /** Classes of the school's size, grades 1-4 in turn (as `bulkSchool` creates them). */
  students: { studentId: number; classId: string; grade: number; teacherId: number }[];
}

/**
 * An organization whose BOY window is open today (`openWindowFor`: the goal line of progress monitoring needs
 * the organization's EOY day) and a school of `count` students in classes of `classSize`, rows in bulk.
 */
export async function windowSchool(sql: Sql, count: number, classSize: number): Promise<WindowSchool> {
  const org = await createBenchOrganization(sql);
  const { schoolId, classIds, studentIds } = await bulkSchool(sql, org, 'مدرسة النافذة', count, classSize);
  await openWindowFor(sql, org.id, ACADEMIC_YEAR, 'BOY');
  const teacherId = org.root.userId;
  return {
    organizationId: org.id,
    schoolId,
    students: studentIds.map((studentId, i) => ({
      studentId,
      classId: classIds[Math.floor(i / classSize)]!,
      grade: 1 + (Math.floor(i / classSize) % 4),
      teacherId,
    })),
  };
}

/**
 * A BOY screening window's evidence, written as the commands write it (the assessment and decisions test kits):
 * per student a digital sitting (fixture plan of ten questions, 4 to 10 of them answered, then completed) and
 * an oral reading of the passage (4 to 58 words correct in a minute, banded with the global cut table). A
 * third of the students sat a second digital sitting. `writers` loops write at once; decisions are left to
 * the caller (nothing is recomputed here).
 */
export async function screeningEvidence(
  deps: Deps,
  school: WindowSchool,
  writers: number,
): Promise<{ attempts: number; elapsedMs: number; perSecond: number }> {
  const today = new Date();
  let attempts = 0;
  const stats = await runWriters(school.students.length, writers, async (i) => {
    const s = school.students[i]!;
    const place = { organizationId: school.organizationId, schoolId: school.schoolId, ...s };
    for (let sitting = 0; sitting < (i % 3 === 0 ? 2 : 1); sitting++) {
      const open = await startSitting(deps, { ...place, academicYear: ACADEMIC_YEAR, window: 'BOY' });
      const answered = 4 + ((i + sitting) % 7);
      for (let p = 0; p < answered; p++) await open.answer(p);
      await open.complete();
      attempts++;
    }
    await recordOrfProbe(deps, { ...place, academicYear: ACADEMIC_YEAR }, today, 4 + ((i * 7) % 55));
    attempts++;
  });
  return { attempts, elapsedMs: stats.elapsedMs, perSecond: (attempts / stats.elapsedMs) * 1000 };
}

/** Events on the decision streams, by type (what a recompute appended). */
export async function decisionEventCounts(sql: Sql): Promise<Map<string, number>> {
  const rows = await sql<{ event_type: string; n: number }[]>`
    select event_type, count(*)::int as n from es_events where stream_id like 'decision-%' group by 1 order by 1`;
  return new Map(rows.map((r) => [r.event_type, r.n]));
}
