import { attemptHistoryOf, sittingResultsOf } from '@qiraa/assessment';
import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { rankOf, STATUS_TOKENS } from '@qiraa/decisions';
import { inGender, type StudentGender } from '@qiraa/identity';
import { DIAGNOSTIC_DONE_LABELS } from '../engine/diagnosticLabels';
import { lowerMedianRank, STATUS_PHRASES, tokenOfLevel } from '../engine/statusPhrases';
import type { DiagnosticsResponse } from '../schemas';

/** A parent's history is short; the newest this many completed diagnostics are listed. */
const HISTORY_LIMIT = 50;

/**
 * The child's completed digital diagnostics (not voided), newest first: the window in words, the day it was
 * finished, and one categorical label: the four status phrases read from the lower median of the sitting's
 * measure levels (scored with the cuts the sitting pinned), or the completed-without-levels label.
 */
export async function diagnosticsOf(
  sql: Sql,
  child: { studentId: number; firstName: string; gender: StudentGender | null },
): Promise<DiagnosticsResponse> {
  const [history, catalog] = await Promise.all([
    attemptHistoryOf(sql, {
      studentId: child.studentId,
      kind: 'digital_sitting',
      includeVoided: false,
      after: null,
      limit: HISTORY_LIMIT,
    }),
    loadCatalog(sql),
  ]);
  const done = history.rows.filter((r) => r.status === 'done' && r.endedAt !== null);
  const results = await sittingResultsOf(
    sql,
    done.map((r) => r.attemptId),
  );
  const windowName = new Map(catalog.windows.map((w) => [w.code as string, w.nameAr]));
  return {
    firstName: child.firstName,
    entries: done.map((row) => {
      const levels = (results.get(row.attemptId)?.measures ?? [])
        .map((m) => m.level)
        .filter((l): l is 1 | 2 | 3 | 4 => l !== null);
      const rank = lowerMedianRank(levels.map((l) => rankOf(tokenOfLevel(l))));
      return {
        windowLabel: windowName.get(row.window) ?? 'تقييم القراءة',
        completedOn: row.endedAt!.slice(0, 10),
        statusLabel:
          rank === null ? inGender(DIAGNOSTIC_DONE_LABELS, child.gender) : STATUS_PHRASES[STATUS_TOKENS[rank]!],
      };
    }),
  };
}
