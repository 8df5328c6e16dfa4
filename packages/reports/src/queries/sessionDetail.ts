import {
  attemptOf,
  foldOralReading,
  type OralReadingView,
  oralReadingView,
  sittingResultOf,
  streams,
  wordListReadView,
} from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { notFound } from '@qiraa/http-kit';
import { trainingDayOf, trainingGroupsOf } from '@qiraa/training';
import { screenTrainingLevels } from './screenTrainingLevels';
import type { DetailKind } from './sessionKinds';
import { sessionHead } from './sessionResults';

/** Every refusal of a session that is not this student's of this kind answers the same (no probing). */
const unknownSession = () => notFound('session');

/** The session's attempt row; 404 unless it is an attempt of this student and of this kind. */
export async function sessionOf(sql: Sql, studentId: number, kind: DetailKind, sessionId: string) {
  if (kind === 'training_day') {
    if (!(await trainingDayOf(sql, studentId, sessionId))) throw unknownSession();
    return null;
  }
  const row = await attemptOf(sql, sessionId);
  if (!row || row.studentId !== studentId || row.kind !== kind) throw unknownSession();
  return row;
}

/** Errors and self-corrections up to the last word read (every mark before the stop), and the marks past it. */
function markSummary(view: OralReadingView) {
  const last = view.lastWordIndex ?? Number.POSITIVE_INFINITY;
  const counted = view.marks.filter((m) => m.mark !== 'clear');
  return {
    errors: counted.filter((m) => m.mark === 'error' && m.wordIndex <= last).length,
    selfCorrections: counted.filter((m) => m.mark === 'self_correction' && m.wordIndex <= last).length,
    dropped: counted.filter((m) => m.wordIndex > last).length,
  };
}

async function oralReadingDetail(deps: { sql: Sql; store: EventStore }, attemptId: string) {
  const state = foldOralReading(await deps.store.readStream(streams.oralReading(attemptId)));
  if (!state) throw unknownSession();
  // The report shows the marks and the numbers, not the passage text (the reading's own route has it).
  const view = await oralReadingView(deps.sql, state, null);
  return {
    passageId: view.passageId,
    passageVersion: view.passageVersion,
    wordCount: view.wordCount,
    durationSeconds: view.durationSeconds,
    marks: view.marks,
    markSummary: markSummary(view),
    lastWordIndex: view.lastWordIndex,
    elapsedSeconds: view.elapsedSeconds,
    attempted: view.attempted,
    errors: view.errors,
    correct: view.correct,
    wcpm: view.wcpm,
    accuracy: view.accuracy,
    accuracyBand: view.accuracyBand,
    rateBand: view.rateBand,
    band: view.band,
    bandBasis: view.bandBasis,
    skippedReason: view.skippedReason,
    rateCut: view.rateCut,
    provisional: view.provisional,
    cutVersion: view.cutVersion,
  };
}

async function wordListReadDetail(deps: { sql: Sql; store: EventStore }, attemptId: string) {
  const view = await wordListReadView(deps.sql, deps.store, attemptId);
  if (!view) throw unknownSession();
  return {
    wordListId: view.wordListId,
    wordListVersion: view.wordListVersion,
    wordCount: view.wordCount,
    timed: view.timed,
    errorIndices: view.errorIndices,
    lastWordIndex: view.lastWordIndex,
    elapsedSeconds: view.elapsedSeconds,
    attempted: view.attempted,
    errors: view.errors,
    correct: view.correct,
    droppedMarks: view.droppedMarks,
    wcpm: view.wcpm,
    accuracy: view.accuracy,
    accuracyBand: view.accuracyBand,
    rateBand: view.rateBand,
    band: view.band,
    bandBasis: view.bandBasis,
    skippedReason: view.skippedReason,
    rateCut: view.rateCut,
    provisional: view.provisional,
    cutVersion: view.cutVersion,
  };
}

/**
 * One session of the student: 404 unless `sessionId` is an attempt of this student and of this kind. A voided
 * session is still read here, marked with its void (the results list offers it only on request).
 */
export async function sessionDetail(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
  kind: DetailKind,
  sessionId: string,
) {
  if (kind === 'training_day') return trainingDayDetail(deps.sql, studentId, sessionId);
  const row = await sessionOf(deps.sql, studentId, kind, sessionId);
  if (!row) throw unknownSession();
  // The stored id (lower case): stream names are built from it, whatever case the path used.
  const id = row.attemptId;
  const none = { measures: null, composite: null, itemReview: null, oralReading: null, wordListRead: null };
  const trainingGroups = null;
  if (kind === 'digital_sitting') {
    const sitting = await sittingResultOf(deps.sql, id);
    if (!sitting) throw unknownSession();
    const trainingLevelOf = await screenTrainingLevels(deps.sql, studentId, [sitting.academicYear]);
    return {
      ...sessionHead(row, sitting),
      ...none,
      measures: sitting.measures.map((m) => ({
        ...m,
        trainingLevel: trainingLevelOf(sitting.academicYear, m.measureCode),
      })),
      composite: sitting.composite,
      itemReview: sitting.itemReview,
      trainingGroups,
    };
  }
  if (kind === 'oral_text')
    return {
      ...sessionHead(row, undefined),
      ...none,
      oralReading: await oralReadingDetail(deps, id),
      trainingGroups,
    };
  return {
    ...sessionHead(row, undefined),
    ...none,
    wordListRead: await wordListReadDetail(deps, id),
    trainingGroups,
  };
}

/** A training day of the student: its head and `trainingGroups` (the training context's answers by target and role). */
async function trainingDayDetail(sql: Sql, studentId: number, dayId: string) {
  const day = await trainingDayOf(sql, studentId, dayId);
  if (!day) throw unknownSession();
  return {
    studentId,
    sessionId: day.id,
    kind: 'training_day' as const,
    schoolDay: day.date,
    ended: day.ended,
    endReason: day.endReason,
    measures: null,
    composite: null,
    itemReview: null,
    oralReading: null,
    wordListRead: null,
    trainingGroups: (await trainingGroupsOf(sql, day.id)) ?? [],
  };
}
