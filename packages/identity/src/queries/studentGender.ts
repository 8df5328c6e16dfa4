import type { AnySql } from '@qiraa/db';
import type { StudentGender } from '../engine/studentGender';

/** The student's gender, or null when unknown or when the id is not a student. */
export async function studentGender(sql: AnySql, studentId: number): Promise<StudentGender | null> {
  if (!Number.isSafeInteger(studentId) || studentId < 1) return null;
  const [row] = await sql<{ gender: StudentGender | null }[]>`
    select gender from users where id = ${studentId} and primary_persona = 'STUDENT'`;
  return row?.gender ?? null;
}
