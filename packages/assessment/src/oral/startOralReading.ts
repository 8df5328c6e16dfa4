import { randomUUID } from 'node:crypto';
import type { ReadingPassage } from '@qiraa/content';
import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { notFound, unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { recordEvidence } from '../commands/recordEvidence';
import { ORAL_READING_STARTED, streams } from '../events';
import { openWindowOf, teacherPlace } from './attemptPlace';
import type { OralReadingState } from './oralReadingState';
import { ORF_DURATION_SECONDS, type OralReadingStartedData } from './orfEvents';
import { lockAttemptCell, supersededVoidId } from './supersededVoid';
import { passageInTenant } from './tenantContent';

/** A passage a reading in this organization may use: global or the organization's own, and operational. */
export function servesReading(passage: ReadingPassage, organizationId: string): boolean {
  const inScope = passage.organizationId === null || passage.organizationId === organizationId;
  return inScope && passage.status === 'operational';
}

/**
 * Starts an oral reading: the teacher sits with the child and the passage (stream `orf-<uuid>`, opened by
 * `OralReadingStarted` with the attempt header, the passage version and the pinned reading time). Refused:
 * a passage of another grade (422 `passage_grade_mismatch`), no open window (409 `no_open_window`).
 */
export async function startOralReading(
  deps: { sql: Sql; store: EventStore },
  caller: Caller,
  input: { studentId: number; passageId: string },
  // The routes pass `deps.clock`'s now; the demo seed its probes of past weeks. The wall clock only without one.
  options: { now?: Date } = {},
): Promise<OralReadingState & { passage: ReadingPassage }> {
  const passage = await passageInTenant(deps.sql, caller, input.passageId);
  const place = await teacherPlace(deps.sql, caller, input.studentId);
  if (!servesReading(passage, place.organizationId)) throw notFound('passage');
  if (passage.grade !== place.grade) {
    throw unprocessable(
      'passage_grade_mismatch',
      `the passage is for grade ${passage.grade}, the class is grade ${place.grade}`,
      [{ field: 'passageId', issue: 'passage_grade_mismatch' }],
    );
  }
  const at = options.now ?? new Date();
  const window = await openWindowOf(deps.sql, place, at);
  const attemptId = randomUUID();
  const address = { studentId: input.studentId, academicYear: place.academicYear, window, cell: 'oral_text' as const };
  return inTransaction(deps.sql, async (uow) => {
    await lockAttemptCell(uow.sql, address);
    const started: OralReadingStartedData = {
      attemptId,
      kind: 'oral_text',
      cell: 'oral_text',
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
      passageId: passage.id,
      passageVersion: passage.version,
      wordCount: passage.wordCount,
      durationSeconds: ORF_DURATION_SECONDS,
    };
    const result = await recordEvidence(
      uow,
      deps.store,
      streams.oralReading(attemptId),
      [
        {
          type: ORAL_READING_STARTED,
          data: started,
          metadata: { organizationId: place.organizationId, actorUserId: caller.userId },
        },
      ],
      'no_stream',
    );
    if (result.kind !== 'appended') throw new Error(`oral reading ${attemptId}: ${result.kind}`);
    return { started, marks: new Map(), stopped: null, voided: null, version: result.streamVersion, passage };
  });
}
