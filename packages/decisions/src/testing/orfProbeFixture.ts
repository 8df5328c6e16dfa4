import { randomUUID } from 'node:crypto';
import {
  ORAL_READING_STARTED,
  ORAL_READING_STOPPED,
  type OralReadingStartedData,
  type OralReadingStoppedData,
  recordEvidence,
  streams,
} from '@qiraa/assessment';
import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';

export interface ProbePlace {
  organizationId: string;
  schoolId: string;
  classId: string;
  studentId: number;
  teacherId: number;
  grade?: number;
  academicYear?: string;
}

/**
 * An oral reading of a passage as the oral-reading commands write it (started, then stopped with raw counts
 * and the pinned global cut table), ended at a chosen time: `words` read in 60 s without an error, so the WCPM
 * is `words`. The routes stamp the present; monitoring needs probes spread over weeks (test fixtures and the
 * demo seed).
 */
export async function recordOrfProbe(
  deps: { sql: Sql; store: EventStore },
  place: ProbePlace,
  at: Date,
  words: number,
): Promise<string> {
  const attemptId = randomUUID();
  const startedAt = new Date(at.getTime() - 90_000).toISOString();
  const started: OralReadingStartedData = {
    attemptId,
    kind: 'oral_text',
    cell: 'oral_text',
    organizationId: place.organizationId,
    schoolId: place.schoolId,
    classId: place.classId,
    studentId: place.studentId,
    grade: place.grade ?? 2,
    academicYear: place.academicYear ?? '2026-2027',
    window: 'BOY',
    startedAt,
    startedBy: place.teacherId,
    supersedesVoidId: null,
    passageId: 'fixture-passage',
    passageVersion: 1,
    wordCount: 200,
    durationSeconds: 60,
  };
  const stopped: OralReadingStoppedData = {
    attemptId,
    at: at.toISOString(),
    stoppedBy: place.teacherId,
    lastWordIndex: words - 1,
    elapsedSeconds: 60,
    errorIndices: [],
    attempted: words,
    errors: 0,
    droppedMarks: 0,
    cut: { version: 'global-2026.1', organizationId: null },
    rateCut: 'applied',
    result: { wcpm: words },
  };
  const result = await inTransaction(deps.sql, (uow) =>
    recordEvidence(uow, deps.store, streams.oralReading(attemptId), [
      { type: ORAL_READING_STARTED, data: started },
      { type: ORAL_READING_STOPPED, data: stopped },
    ]),
  );
  if (result.kind !== 'appended') throw new Error(`ORF probe: ${result.kind}`);
  return attemptId;
}
