import type { AnySql } from '@qiraa/db';

/** The student an attempt belongs to (a void names the attempt only), or null for an unknown attempt. */
export async function studentOfAttempt(sql: AnySql, attemptId: string): Promise<number | null> {
  const [row] = await sql<{ student_id: string }[]>`
    select student_id::text from asm_attempts where attempt_id = ${attemptId}`;
  return row ? Number(row.student_id) : null;
}

/**
 * Whether any of the student's attempts was voided: one index read, so a consumer of every decision can skip
 * reading the whole evidence for the (nearly all) children nothing was ever voided for.
 */
export async function hasVoidedAttempt(sql: AnySql, studentId: number): Promise<boolean> {
  const [row] = await sql<{ any: boolean }[]>`
    select exists (select 1 from asm_attempts where student_id = ${studentId} and void_id is not null) as any`;
  return row?.any ?? false;
}
