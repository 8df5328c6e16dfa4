import { randomUUID } from 'node:crypto';
import { recordWordListUse, type WordListView } from '@qiraa/content';
import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { notFound, unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { recordEvidence } from '../commands/recordEvidence';
import { streams, WORD_LIST_READ, type WordListRead } from '../events';
import { type AttemptPlace, openWindowOf, teacherPlace } from '../oral/attemptPlace';
import { bandedFields, bandedRead, resultSummary } from '../oral/bandedRead';
import { scoringStatusOf, type WordListCell, wordListCellOf } from '../oral/cellMeasure';
import { currentReadCuts, type ReadCutPin } from '../oral/readCuts';
import { lockAttemptCell, supersededVoidId } from '../oral/supersededVoid';
import { wordListInTenant } from '../oral/tenantContent';
import { countRead, type ReadCounts } from '../scoring/readCounts';

export interface WordListReadInput {
  studentId: number;
  wordListId: string;
  errorIndices?: number[];
  last_word_index?: number;
  elapsed_seconds?: number;
}

/** `WordListRead` as this context writes it: the header, the list version, the raw counts, the pinned cuts. */
export interface WordListReadData extends WordListRead {
  cell: WordListCell;
  wordListId: string;
  wordListVersion: number;
  wordCount: number;
  timing: { timed: boolean; durationSeconds: number | null };
  lastWordIndex: number | null;
  elapsedSeconds: number | null;
  errorIndices: number[];
  attempted: number;
  errors: number;
  droppedMarks: number;
  cut: ReadCutPin | null;
  rateCut: string;
  result: Record<string, unknown>;
}

/** A list a read at this place may use: operational, and global, the organization's or the place's school's. */
export function servedAt(list: WordListView, place: Pick<AttemptPlace, 'organizationId' | 'schoolId'>): boolean {
  if (list.status !== 'operational') return false;
  if (list.scope === 'global') return true;
  if (list.organizationId !== place.organizationId) return false;
  return list.scope === 'organization' || list.schoolId === place.schoolId;
}

const refuse = (reason: string, field: string, message: string) =>
  unprocessable(reason, message, [{ field, issue: reason }]);

/**
 * Records a word-list read whole (stream `wlread-<uuid>`, one `WordListRead` event) and counts the list's use.
 * Checked in order, and nothing is written on a refusal: the teacher (403), the list (404 unless operational
 * and served here), 422 `word_list_grade_mismatch`, 409 `no_open_window`, 422 `word_list_window_mismatch`,
 * then the timed-grid reasons of countRead.
 */
export async function recordWordListRead(
  deps: { sql: Sql; store: EventStore },
  caller: Caller,
  input: WordListReadInput,
  /** `deps.clock`'s now from the route: the open window is decided at it, and the read's `at` is it. */
  options: { now?: Date } = {},
) {
  const list = await wordListInTenant(deps.sql, caller, input.wordListId);
  const place = await teacherPlace(deps.sql, caller, input.studentId);
  if (!servedAt(list, place)) throw notFound('word list');
  const cell = await wordListCellOf(deps.sql, list.skillId);
  if (!cell) throw notFound('word list');
  if (list.grade !== place.grade) {
    throw refuse(
      'word_list_grade_mismatch',
      'wordListId',
      `the list is for grade ${list.grade}, the class is grade ${place.grade}`,
    );
  }
  const at = options.now ?? new Date();
  const window = await openWindowOf(deps.sql, place, at);
  if (list.window !== null && list.window !== window) {
    throw refuse(
      'word_list_window_mismatch',
      'wordListId',
      `the list is for ${list.window}, the open window is ${window}`,
    );
  }
  const errorIndices = [...new Set(input.errorIndices ?? [])].sort((a, b) => a - b);
  const counted = countRead({
    wordCount: list.wordCount,
    timing: list.timing,
    lastWordIndex: input.last_word_index ?? null,
    elapsedSeconds: input.elapsed_seconds ?? null,
    errorIndices,
  });
  if (!counted.ok) throw refuse(counted.reason, counted.field, 'the read cannot be counted');
  const counts: ReadCounts = counted.counts;
  const table = await currentReadCuts(deps.sql, place.organizationId, { cell, grade: place.grade, window });
  const read = bandedRead(counts, table, await scoringStatusOf(deps.sql, cell, place.grade));

  const attemptId = randomUUID();
  const address = { studentId: input.studentId, academicYear: place.academicYear, window, cell };
  const data = await inTransaction(deps.sql, async (uow) => {
    await lockAttemptCell(uow.sql, address);
    const event: WordListReadData = {
      attemptId,
      kind: 'oral_word_list',
      cell,
      organizationId: place.organizationId,
      schoolId: place.schoolId,
      classId: place.classId,
      studentId: input.studentId,
      grade: place.grade,
      academicYear: place.academicYear,
      window,
      startedAt: at.toISOString(),
      startedBy: caller.userId,
      supersedesVoidId: await supersededVoidId(uow.sql, address),
      wordListId: list.id,
      wordListVersion: list.version,
      wordCount: list.wordCount,
      timing: list.timing,
      lastWordIndex: counts.lastWordIndex,
      elapsedSeconds: counts.elapsedSeconds,
      errorIndices,
      attempted: counts.attempted,
      errors: counts.errors,
      droppedMarks: counts.droppedMarks,
      cut: read.cut,
      rateCut: read.rateCut,
      result: resultSummary(read),
    };
    const appended = await recordEvidence(
      uow,
      deps.store,
      streams.wordListRead(attemptId),
      [
        {
          type: WORD_LIST_READ,
          data: event,
          metadata: { organizationId: place.organizationId, actorUserId: caller.userId },
        },
      ],
      'no_stream',
    );
    if (appended.kind !== 'appended') throw new Error(`word-list read ${attemptId}: ${appended.kind}`);
    await recordWordListUse(uow.sql, { wordListId: list.id, assessmentRef: streams.wordListRead(attemptId) });
    return event;
  });
  return {
    id: attemptId,
    studentId: input.studentId,
    wordListId: list.id,
    wordListVersion: list.version,
    cell,
    grade: place.grade,
    window,
    at: data.startedAt,
    timed: counts.timed,
    attempted: counts.attempted,
    errors: counts.errors,
    correct: counts.correct,
    droppedMarks: counts.droppedMarks,
    lastWordIndex: counts.lastWordIndex,
    elapsedSeconds: counts.elapsedSeconds,
    ...bandedFields(read),
    cutVersion: read.cut?.version ?? null,
  };
}
