import type { AnySql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { ATTEMPT_VOIDED, type AttemptVoided, streams, WORD_LIST_READ } from '../events';
import { type BandedRead, bandedFields, bandedRead } from '../oral/bandedRead';
import { scoringStatusOf } from '../oral/cellMeasure';
import { pinnedReadCuts } from '../oral/readCuts';
import type { WordListReadData } from './recordWordListRead';

/**
 * A stored word-list read as staff read it later: the raw counts of its one event, scored again with the cut
 * table it pinned (never the current one), so it reads the same forever; null when there is no such read.
 */
export async function wordListReadView(sql: AnySql, store: EventStore, attemptId: string) {
  const events = await store.readStream(streams.wordListRead(attemptId));
  const opened = events.find((e) => e.type === WORD_LIST_READ);
  if (!opened) return null;
  const data = opened.data as WordListReadData;
  const voided = (events.find((e) => e.type === ATTEMPT_VOIDED)?.data as AttemptVoided | undefined) ?? null;
  const counts = {
    timed: data.timing.timed,
    attempted: data.attempted,
    errors: data.errors,
    correct: data.attempted - data.errors,
    lastWordIndex: data.lastWordIndex,
    elapsedSeconds: data.elapsedSeconds,
    droppedMarks: data.droppedMarks,
  };
  const table = await pinnedReadCuts(sql, data.cut, { cell: data.cell, grade: data.grade, window: data.window });
  // A pin whose rows are gone: the summary stored with the read is all that is left of its bands.
  const read: BandedRead =
    data.cut && !table
      ? (data.result as unknown as BandedRead)
      : bandedRead(counts, table, await scoringStatusOf(sql, data.cell, data.grade));
  return {
    id: attemptId,
    studentId: data.studentId,
    classId: data.classId,
    grade: data.grade,
    academicYear: data.academicYear,
    window: data.window,
    cell: data.cell,
    wordListId: data.wordListId,
    wordListVersion: data.wordListVersion,
    wordCount: data.wordCount,
    at: data.startedAt,
    startedBy: data.startedBy,
    voided: voided !== null,
    ...counts,
    errorIndices: data.errorIndices,
    ...bandedFields(read),
    cutVersion: data.cut?.version ?? null,
  };
}

export type WordListReadView = NonNullable<Awaited<ReturnType<typeof wordListReadView>>>;
