import type { AnySql } from '@qiraa/db';

/** The child of an oral reading (undefined when there is no such reading), for the tenant check before a handler. */
export async function oralReadingStudent(sql: AnySql, attemptId: string): Promise<string | undefined> {
  const [row] = await sql<{ student_id: string }[]>`
    select student_id from asm_attempts where attempt_id = ${attemptId} and kind = 'oral_text'`;
  return row?.student_id;
}

/** The organization of a sitting (undefined when unknown). */
export async function sittingOrganization(sql: AnySql, attemptId: string): Promise<string | undefined> {
  const [row] = await sql<{ organization_id: string }[]>`
    select organization_id from asm_sittings where attempt_id = ${attemptId}`;
  return row?.organization_id;
}

/** The distinct students of these attempts (any kind), in ascending order; unknown ids: none. */
export async function studentsOfAttempts(sql: AnySql, attemptIds: readonly string[]): Promise<number[]> {
  const rows = await sql<{ student_id: string }[]>`
    select distinct student_id::text from asm_attempts where attempt_id = any(${sql.array([...attemptIds], 1009)}::uuid[])`;
  return rows.map((r) => Number(r.student_id)).sort((a, b) => a - b);
}
