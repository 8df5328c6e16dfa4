import type { Sql } from '@qiraa/db';
import { assignClassTeacher, createUser } from '@qiraa/identity';
import { DEMO_PACK_DIR, importContentPack } from '../../../cli/src/commands/contentImport';
import { BENCH_PASSWORD, bulkSchool, createBenchOrganization } from '../gamification/tenants';

export const ACADEMIC_YEAR = '2026-2027';

export interface ScreeningSchool {
  organizationId: string;
  schoolId: string;
  /** Classes of `classSize`, grades 1-4 in turn. */
  classIds: string[];
  /** Every student with the class they are enrolled in. */
  students: { studentId: number; classId: string }[];
  /** The teacher of the first class (the page and the oral reads are timed for that class). */
  teacherEmail: string;
  adminEmail: string;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * An organization whose BOY window is open today (its calendar is set so: BOY from ten days ago to ten days
 * ahead, MOY and EOY after it), a school of `count` students in classes of `classSize`, a teacher for the
 * first class, and the demo content pack (screening forms, passages, word lists, blueprint cells).
 */
export async function screeningSchool(sql: Sql, count: number, classSize: number): Promise<ScreeningSchool> {
  const org = await createBenchOrganization(sql);
  const { schoolId, classIds, studentIds } = await bulkSchool(sql, org, 'مدرسة الصباح', count, classSize);
  const teacherEmail = `teacher-${org.id}@bench.test`;
  const teacher = await createUser(sql, org.root, {
    primaryPersona: 'TEACHER',
    email: teacherEmail,
    password: BENCH_PASSWORD,
    fullNameAr: 'معلمة الصف',
    organizationId: org.id,
  });
  await assignClassTeacher(sql, org.root, classIds[0]!, teacher.id);

  const pack = await importContentPack({ sql }, DEMO_PACK_DIR);
  if (pack.problems.length > 0) throw new Error(`demo pack refused: ${pack.problems.join('; ')}`);

  const day = 86_400_000;
  const now = Date.now();
  const calendar = [
    ['BOY', isoDay(new Date(now - 10 * day)), isoDay(new Date(now + 10 * day))],
    ['MOY', isoDay(new Date(now + 40 * day)), isoDay(new Date(now + 60 * day))],
    ['EOY', isoDay(new Date(now + 120 * day)), isoDay(new Date(now + 140 * day))],
  ] as const;
  for (const [window, startsOn, endsOn] of calendar) {
    await sql`
      insert into asm_window_calendars (organization_id, academic_year, evidence_window, starts_on, ends_on)
      values (${org.id}, ${ACADEMIC_YEAR}, ${window}, ${startsOn}, ${endsOn})`;
  }
  const students = studentIds.map((studentId, i) => ({ studentId, classId: classIds[Math.floor(i / classSize)]! }));
  return { organizationId: org.id, schoolId, classIds, students, teacherEmail, adminEmail: org.adminEmail };
}
