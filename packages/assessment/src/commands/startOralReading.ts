import { randomUUID } from 'node:crypto';
import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { ReadingPassage } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { type ApiError, conflict, notFound, unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { assessmentCommands } from '../commandContext';
import { foldOralReading, type OralReadingState } from '../engine/oralReadingState';
import { ORAL_READING_STARTED, streams } from '../events';
import { ORF_DURATION_SECONDS, type OralReadingStartedData } from '../events/orfEvents';
import { type AttemptPlace, teacherPlace } from './attemptPlace';
import { type OpenWindowFact, type OralAttemptSlot, openWindowFact, oralAttemptSlot } from './oralAttemptSlot';
import { passageInTenant } from './tenantContent';

/** A passage a reading in this organization may use: global or the organization's own, and operational. */
export function servesReading(passage: ReadingPassage, organizationId: string): boolean {
  const inScope = passage.organizationId === null || passage.organizationId === organizationId;
  return inScope && passage.status === 'operational';
}

/** Why a start is refused (after the tenant's 404 and the teacher's 403, which the facts' read answers). */
export type StartOralReadingRefusal = 'passage_not_served' | 'passage_grade_mismatch' | 'no_open_window';

const refusal = (reason: StartOralReadingRefusal, command: StartOralReading): ApiError => {
  const { passage, place, window } = command;
  switch (reason) {
    case 'passage_not_served':
      return notFound('passage');
    case 'passage_grade_mismatch':
      return unprocessable(reason, `the passage is for grade ${passage.grade}, the class is grade ${place.grade}`, [
        { field: 'passageId', issue: reason },
      ]);
    case 'no_open_window':
      return conflict(reason, `no screening window is open for ${place.academicYear} on ${window.today}`);
  }
};

export interface StartOralReading {
  /** The id of the reading this start opens. */
  readonly attemptId: string;
  readonly studentId: number;
  readonly teacherId: number;
  readonly at: Date;
  /** Read before the decision: the passage in the caller's tenant, the teacher's place, the open window. */
  readonly passage: ReadingPassage;
  readonly place: AttemptPlace;
  readonly window: OpenWindowFact;
}

/** The child's oral-text cell as read under its lock, and the reading this start opened. */
export interface StartOralReadingState extends OralAttemptSlot {
  readonly started: OralReadingState | null;
}

/**
 * A start's rules, in order: the passage is served in the place's organization (else 404, as unknown), it is
 * of the class grade (422 `passage_grade_mismatch`), a window is open (409 `no_open_window`). Else
 * `OralReadingStarted` with the attempt header, the passage version and the pinned reading time, in the
 * teacher's name.
 */
export const startOralReadingDecider: Decider<
  StartOralReading,
  NewEvent<OralReadingStartedData>,
  StartOralReadingState
> = {
  initialState: () => ({ supersedesVoidId: null, started: null }),
  evolve: (state, event) => ({ ...state, started: foldOralReading([event]) ?? state.started }),
  decide(command, { supersedesVoidId }) {
    const { passage, place, window } = command;
    if (!servesReading(passage, place.organizationId)) throw refusal('passage_not_served', command);
    if (passage.grade !== place.grade) throw refusal('passage_grade_mismatch', command);
    if (!window.open) throw refusal('no_open_window', command);
    const started: OralReadingStartedData = {
      attemptId: command.attemptId,
      kind: 'oral_text',
      cell: 'oral_text',
      organizationId: place.organizationId,
      schoolId: place.schoolId,
      classId: place.classId,
      studentId: command.studentId,
      grade: place.grade,
      academicYear: place.academicYear,
      window: window.open,
      startedAt: command.at.toISOString(),
      startedBy: command.teacherId,
      supersedesVoidId,
      passageId: passage.id,
      passageVersion: passage.version,
      wordCount: passage.wordCount,
      durationSeconds: ORF_DURATION_SECONDS,
    };
    return [
      {
        eventId: deterministicEventId('oral-reading-started', command.attemptId),
        type: ORAL_READING_STARTED,
        data: started,
        metadata: { organizationId: place.organizationId, actorUserId: command.teacherId },
      },
    ];
  },
};

/**
 * Starts an oral reading: the teacher sits with the child and the passage (stream `orf-<uuid>`, opened by
 * `OralReadingStarted`). Checked in order: the passage's tenant (404), the caller a teacher of the child (403),
 * then the decider's refusals. The child's oral-text cell is locked while the void it replaces is read.
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
  const at = options.now ?? new Date();
  const window = await openWindowFact(deps.sql, place, at);
  const attemptId = randomUUID();
  const { state } = await handleCommand(deps, {
    context: assessmentCommands,
    streamId: streams.oralReading(attemptId),
    decider: startOralReadingDecider,
    command: { attemptId, studentId: input.studentId, teacherId: caller.userId, at, passage, place, window },
    load: {
      name: 'the void the child’s oral-text attempt replaces, under the cell’s lock',
      inTransaction: true,
      async load(uow) {
        const slot = await oralAttemptSlot(uow.sql, place, input.studentId, window.open, 'oral_text');
        return { state: { ...slot, started: null }, version: 'no_stream' };
      },
    },
  });
  if (!state.started) throw new Error(`oral reading ${attemptId}: not started`);
  return { ...state.started, passage };
}
