import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { type SittingResult, scoreSitting } from '../engine/scoreSitting';
import type { SittingFold, SittingMode } from '../events/sittingTypes';
import { pinnedCuts } from './cutTables';
import { readSitting, readSittings } from './readSitting';

export interface SittingResultRead extends SittingResult {
  attemptId: string;
  studentId: number;
  academicYear: string;
  window: string;
  /** The window's screening or a re-sit after a finished one. */
  mode: SittingMode;
  status: 'in_progress' | 'done' | 'stopped';
  endReason: string | null;
  /** A voided sitting stays stored but is out of every decision, trend and read. */
  voided: boolean;
}

async function resultOf(sql: Sql, fold: SittingFold): Promise<SittingResultRead> {
  const s = fold.started;
  const [cuts, catalog] = await Promise.all([pinnedCuts(sql, s.pins.cutVersions, s.grade, s.window), loadCatalog(sql)]);
  return {
    attemptId: fold.attemptId,
    studentId: s.studentId,
    academicYear: s.academicYear,
    window: s.window,
    mode: s.mode,
    status: fold.status,
    endReason: fold.endReason,
    voided: fold.voided,
    ...scoreSitting(fold, cuts, catalog),
  };
}

/**
 * A digital sitting's measure results (scored with the cut versions it pinned at its start), the comprehension
 * composite and the item review, from the read model; null for an unknown id. For later contexts (decisions,
 * reports): a sitting ended by a void or a window close reads as incomplete with that reason.
 */
export async function sittingResultOf(sql: Sql, attemptId: string): Promise<SittingResultRead | null> {
  const fold = await readSitting(sql, attemptId);
  return fold ? resultOf(sql, fold) : null;
}

/** `sittingResultOf` for several sittings (one read of the read model), by id; unknown ids are absent. */
export async function sittingResultsOf(
  sql: Sql,
  attemptIds: readonly string[],
): Promise<Map<string, SittingResultRead>> {
  const results = await Promise.all((await readSittings(sql, attemptIds)).map((fold) => resultOf(sql, fold)));
  return new Map(results.map((r) => [r.attemptId, r]));
}
