import type { AnySql } from '@qiraa/db';

/** The student's level on a skill in the newest academic year that has one, or null (an auditor's explanation). */
export async function currentTrainingLevel(sql: AnySql, studentId: number, skillId: string): Promise<number | null> {
  const [row] = await sql<{ level: number }[]>`
    select level from trn_levels where student_id = ${studentId} and skill_id = ${skillId}
    order by academic_year desc limit 1`;
  return row?.level ?? null;
}
