import type { AnySql } from '@qiraa/db';
import type { ScreeningWindow } from '../engine/calendar';
import type { PageCell } from '../events';

export interface VoidAddress {
  readonly studentId: number;
  readonly academicYear: string;
  readonly window: ScreeningWindow;
  readonly cell: PageCell;
}

/**
 * Serialises the new attempts of one child's cell (a transaction-scoped advisory lock), so two parallel
 * attempts cannot both take the same void as the one they replace. Call first in the command's transaction.
 */
export async function lockAttemptCell(tx: AnySql, at: VoidAddress): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${`asm-cell:${at.studentId}:${at.academicYear}:${at.window}:${at.cell}`}, 0))`;
}

/**
 * The void a new attempt replaces (`supersedesVoidId`, server side only): the latest void of the same student,
 * academic year, window and cell that no attempt replaces yet; null when there is none.
 */
export async function supersededVoidId(tx: AnySql, at: VoidAddress): Promise<number | null> {
  const [row] = await tx<{ void_id: string }[]>`
    select a.void_id from asm_attempts a
    where a.student_id = ${at.studentId} and a.academic_year = ${at.academicYear}
      and a.evidence_window = ${at.window} and a.cell = ${at.cell} and a.void_id is not null
      and not exists (select 1 from asm_attempts r
                      where r.student_id = a.student_id and r.supersedes_void_id = a.void_id)
    order by a.voided_at desc, a.void_id desc
    limit 1`;
  return row ? Number(row.void_id) : null;
}
