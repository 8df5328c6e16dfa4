import type { AnySql } from '@qiraa/db';
import { learnerPlacementJsonQuery } from '@qiraa/identity';

/** What training needs to know of a child: organization, its time zone, and the active class's grade and year. */
export interface Learner {
  studentId: number;
  organizationId: string;
  timeZone: string;
  grade: number;
  academicYear: string;
}

/** The child's newest active class; null without one (no training without a class). */
export async function learnerOf(sql: AnySql, studentId: number): Promise<Learner | null> {
  const [row] = await sql<{ learner: LearnerJson | null }[]>`select ${learnerJson(sql, studentId)} as learner`;
  return learnerOfJson(studentId, row?.learner ?? null);
}

export interface LearnerJson {
  organization_id: string;
  time_zone: string;
  grade: number;
  academic_year: string;
}

/** learnerOf's read as a scalar subquery (a JSON object or null), for a statement that reads more at once. */
export const learnerJson = (sql: AnySql, studentId: number) => sql`(${learnerPlacementJsonQuery(sql, studentId)})`;

export function learnerOfJson(studentId: number, row: LearnerJson | null): Learner | null {
  if (!row) return null;
  return {
    studentId,
    organizationId: row.organization_id,
    timeZone: row.time_zone,
    grade: row.grade,
    academicYear: row.academic_year,
  };
}
