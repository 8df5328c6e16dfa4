import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { pinnedCuts } from './cutTables';
import { readSitting } from './readSitting';
import { type SittingResult, scoreSitting } from './scoreSitting';

export interface SittingResultRead extends SittingResult {
  attemptId: string;
  studentId: number;
  academicYear: string;
  window: string;
  status: 'in_progress' | 'done' | 'stopped';
  endReason: string | null;
  /** A voided sitting stays stored but is out of every decision, trend and read. */
  voided: boolean;
}

/**
 * A digital sitting's measure results (scored with the cut versions it pinned at its start), the comprehension
 * composite and the item review, from the read model; null for an unknown id. For later contexts (decisions,
 * reports): a sitting ended by a void or a window close reads as incomplete with that reason.
 */
export async function sittingResultOf(sql: Sql, attemptId: string): Promise<SittingResultRead | null> {
  const fold = await readSitting(sql, attemptId);
  if (!fold) return null;
  const s = fold.started;
  const [cuts, catalog] = await Promise.all([pinnedCuts(sql, s.pins.cutVersions, s.grade, s.window), loadCatalog(sql)]);
  return {
    attemptId,
    studentId: s.studentId,
    academicYear: s.academicYear,
    window: s.window,
    status: fold.status,
    endReason: fold.endReason,
    voided: fold.voided,
    ...scoreSitting(fold, cuts, catalog),
  };
}
