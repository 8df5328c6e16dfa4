import type { AnySql } from '@qiraa/db';
import { type EventStore, isOfType } from '@qiraa/eventstore';
import { type BandedRead, bandedFields, bandedRead } from '../engine/bandedRead';
import { ATTEMPT_VOIDED, assessmentEvents, streams, WORD_LIST_READ } from '../events';
import { scoringStatusOf } from './cellMeasure';
import { pinnedReadCuts } from './readCuts';

/**
 * A stored word-list read as staff read it later: the raw counts of its one event, scored again with the cut
 * table it pinned (never the current one), so it reads the same forever; null when there is no such read.
 */
export async function wordListReadView(sql: AnySql, store: EventStore, attemptId: string) {
  const events = assessmentEvents(await store.readStream(streams.wordListRead(attemptId)));
  const opened = events.find(isOfType(WORD_LIST_READ));
  if (!opened) return null;
  const data = opened.data;
  const voided = events.find(isOfType(ATTEMPT_VOIDED))?.data ?? null;
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
