import {
  type AttemptHistoryRow,
  attemptHistoryOf,
  type RateCut,
  type ReadBand,
  type ScreeningWindow,
  type SittingResultRead,
  sittingResultsOf,
} from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import { encodeCursor, type ResultsCursor } from './cursor';
import type { MeasureTrainingLevel } from './screenTrainingLevels';
import { screenTrainingLevels } from './screenTrainingLevels';
import type { SessionKind } from './sessionKinds';

export interface ResultsFilter {
  academicYear?: string;
  window?: ScreeningWindow;
  kind?: SessionKind;
  includeVoided: boolean;
}

/** The fields every row and the detail share: what the session is, where it stands, its void. */
export function sessionHead(row: AttemptHistoryRow, sitting: SittingResultRead | undefined) {
  return {
    studentId: row.studentId,
    sessionId: row.attemptId,
    kind: row.kind,
    cell: row.cell,
    mode: sitting?.mode ?? null,
    academicYear: row.academicYear,
    window: row.window,
    grade: row.grade,
    classId: row.classId,
    at: row.startedAt,
    endedAt: row.endedAt,
    status: row.status,
    endReason: row.endReason,
    voided: row.voided && { id: `void:${row.voided.voidId}`, reason: row.voided.reason, at: row.voided.at },
  };
}

/** The read's stored summary (scored by the stop or the record with the cut table it pinned). */
function readSummary(result: Record<string, unknown> | null) {
  if (!result) return null;
  const pick = <T>(key: string) => (result[key] ?? null) as T | null;
  return {
    wcpm: pick<number>('wcpm'),
    accuracy: pick<number>('accuracy'),
    band: pick<ReadBand>('band'),
    rateCut: pick<RateCut>('rateCut'),
    provisional: pick<boolean>('provisional'),
  };
}

/**
 * A digital sitting is scored live from its read model with the cut versions it pinned: the same numbers as
 * the detail, also for sittings a window close or a void stopped without a stored summary, and an open one's
 * answers so far (its measures say `not_finished`).
 */
function summaryOf(
  row: AttemptHistoryRow,
  sitting: SittingResultRead | undefined,
  trainingLevelOf: (academicYear: string, measureCode: string) => MeasureTrainingLevel,
) {
  if (row.kind !== 'digital_sitting') return { measures: null, composite: null, read: readSummary(row.result) };
  return {
    measures:
      sitting?.measures.map((m) => ({
        measureCode: m.measureCode,
        labelAr: m.labelAr,
        raw: m.raw,
        max: m.max,
        complete: m.complete,
        incompleteReason: m.incompleteReason,
        level: m.level,
        trainingLevel: trainingLevelOf(row.academicYear, m.measureCode),
        provisional: m.provisional,
      })) ?? null,
    composite: sitting?.composite ?? null,
    read: null,
  };
}

/** One page of the student's sessions, newest first, and the cursor of the next page. */
export async function sessionResults(
  sql: Sql,
  studentId: number,
  filter: ResultsFilter,
  page: { limit: number; after: ResultsCursor | null },
) {
  const { rows, more } = await attemptHistoryOf(sql, {
    studentId,
    ...(filter.academicYear === undefined ? {} : { academicYear: filter.academicYear }),
    ...(filter.window === undefined ? {} : { window: filter.window }),
    ...(filter.kind === undefined ? {} : { kind: filter.kind }),
    includeVoided: filter.includeVoided,
    after: page.after,
    limit: page.limit,
  });
  const digital = rows.filter((r) => r.kind === 'digital_sitting');
  const [sittings, trainingLevelOf] = await Promise.all([
    sittingResultsOf(
      sql,
      digital.map((r) => r.attemptId),
    ),
    screenTrainingLevels(
      sql,
      studentId,
      digital.map((r) => r.academicYear),
    ),
  ]);
  const last = rows.at(-1);
  return {
    studentId,
    items: rows.map((row) => {
      const sitting = sittings.get(row.attemptId);
      return { ...sessionHead(row, sitting), summary: summaryOf(row, sitting, trainingLevelOf) };
    }),
    nextCursor: more && last ? encodeCursor({ startedAtKey: last.startedAtKey, attemptId: last.attemptId }) : null,
  };
}
