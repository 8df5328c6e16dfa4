import type { AnySql } from '@qiraa/db';
import type { ScreeningWindow } from '../engine/calendar';
import type { PageCell } from '../events';

/**
 * The void a new attempt replaces (`AttemptHeader.supersedesVoidId`): the void of the student's latest
 * attempt in that year, window and cell when that attempt is voided; null otherwise. The starting commands
 * (sittings, oral readings, word-list reads) call it when they open an attempt.
 */
export async function pendingVoidOf(
  sql: AnySql,
  at: { studentId: number; academicYear: string; window: ScreeningWindow; cell: PageCell },
): Promise<number | null> {
  const [latest] = await sql<{ void_id: string | null }[]>`
    select void_id from asm_attempts
    where student_id = ${at.studentId} and academic_year = ${at.academicYear}
      and evidence_window = ${at.window} and cell = ${at.cell}
    order by started_at desc, attempt_id desc limit 1`;
  return latest?.void_id == null ? null : Number(latest.void_id);
}
