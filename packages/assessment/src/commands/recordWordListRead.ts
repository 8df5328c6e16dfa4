import { randomUUID } from 'node:crypto';
import { type Decider, handleCommand } from '@qiraa/command-kit';
import { recordWordListUse, type WordListView } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { type ApiError, conflict, notFound, unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import { assessmentCommands } from '../commandContext';
import { type BandedRead, bandedFields, bandedRead, resultSummary } from '../engine/bandedRead';
import type { ReadCutTable } from '../engine/bandRead';
import type { ScreeningWindow } from '../engine/calendar';
import { countRead, type ReadCounts, type ReadRefusal } from '../engine/readCounts';
import { assessmentEvents, streams, WORD_LIST_READ, type WordListReadData } from '../events';
import type { WordListCell } from '../events/readEvents';
import { scoringStatusOf, wordListCellOf } from '../queries/cellMeasure';
import { currentReadCuts } from '../queries/readCuts';
import { type AttemptPlace, teacherPlace } from './attemptPlace';
import { type OpenWindowFact, type OralAttemptSlot, openWindowFact, oralAttemptSlot } from './oralAttemptSlot';
import { wordListInTenant } from './tenantContent';

export interface WordListReadInput {
  studentId: number;
  wordListId: string;
  errorIndices?: number[];
  last_word_index?: number;
  elapsed_seconds?: number;
}

/** A list a read at this place may use: operational, and global, the organization's or the place's school's. */
export function servedAt(list: WordListView, place: Pick<AttemptPlace, 'organizationId' | 'schoolId'>): boolean {
  if (list.status !== 'operational') return false;
  if (list.scope === 'global') return true;
  if (list.organizationId !== place.organizationId) return false;
  return list.scope === 'organization' || list.schoolId === place.schoolId;
}

/** Why a read is refused (after the tenant's 404 and the teacher's 403, which the facts' read answers). */
export type WordListReadRefusal =
  | 'word_list_not_served'
  | 'word_list_grade_mismatch'
  | 'no_open_window'
  | 'word_list_window_mismatch'
  | ReadRefusal;

const refusal = (reason: WordListReadRefusal, command: RecordWordListRead, field?: string): ApiError => {
  const { list, place, window } = command.facts;
  switch (reason) {
    case 'word_list_not_served':
      return notFound('word list');
    case 'word_list_grade_mismatch':
      return unprocessable(reason, `the list is for grade ${list.grade}, the class is grade ${place.grade}`, [
        { field: 'wordListId', issue: reason },
      ]);
    case 'no_open_window':
      return conflict(reason, `no screening window is open for ${place.academicYear} on ${window.today}`);
    case 'word_list_window_mismatch':
      return unprocessable(reason, `the list is for ${list.window}, the open window is ${window.open}`, [
        { field: 'wordListId', issue: reason },
      ]);
    default:
      return unprocessable(reason, 'the read cannot be counted', [{ field: field ?? '', issue: reason }]);
  }
};

/**
 * What a read is decided on beside its request, read before the decision: the list in the caller's tenant
 * (404 otherwise), the teacher's place (403), the list's cell (null: not a word-list measure), the open window,
 * and, with a cell and a window, the cut table in force and the measure's scoring status.
 */
export interface WordListReadFacts {
  readonly list: WordListView;
  readonly place: AttemptPlace;
  readonly cell: WordListCell | null;
  readonly window: OpenWindowFact;
  readonly cuts: { readonly table: ReadCutTable | null; readonly status: 'normed' | 'provisional' } | null;
}

export interface RecordWordListRead {
  /** The id of the read this command records. */
  readonly attemptId: string;
  readonly teacherId: number;
  readonly input: WordListReadInput;
  readonly at: Date;
  readonly facts: WordListReadFacts;
}

/** The child's cell as read under its lock, and the read this command recorded. */
export interface WordListReadState extends OralAttemptSlot {
  readonly recorded: WordListReadData | null;
}

/** A read counted and banded, or why it cannot be. */
export type ScoredWordListRead =
  | {
      readonly ok: true;
      readonly cell: WordListCell;
      readonly window: ScreeningWindow;
      readonly counts: ReadCounts;
      readonly read: BandedRead;
      readonly errorIndices: number[];
    }
  | { readonly ok: false; readonly reason: WordListReadRefusal; readonly field?: string };

/** The read counted and banded, or why it cannot be (pure: the decider and the response both take it). */
export function scoreWordListRead(command: RecordWordListRead): ScoredWordListRead {
  const { list, place, cell, window, cuts } = command.facts;
  if (!servedAt(list, place) || !cell) return { ok: false, reason: 'word_list_not_served' };
  if (list.grade !== place.grade) return { ok: false, reason: 'word_list_grade_mismatch' };
  if (!window.open || !cuts) return { ok: false, reason: 'no_open_window' };
  if (list.window !== null && list.window !== window.open) return { ok: false, reason: 'word_list_window_mismatch' };
  const { input } = command;
  const errorIndices = [...new Set(input.errorIndices ?? [])].sort((a, b) => a - b);
  const counted = countRead({
    wordCount: list.wordCount,
    timing: list.timing,
    lastWordIndex: input.last_word_index ?? null,
    elapsedSeconds: input.elapsed_seconds ?? null,
    errorIndices,
  });
  if (!counted.ok) return { ok: false, reason: counted.reason, field: counted.field };
  const read = bandedRead(counted.counts, cuts.table, cuts.status);
  return { ok: true, cell, window: window.open, counts: counted.counts, read, errorIndices };
}

/**
 * A read's rules, in order: the list is served at the place and is a word-list measure (else 404, as unknown),
 * of the class grade (422 `word_list_grade_mismatch`), a window is open (409 `no_open_window`), the list is for
 * it (422 `word_list_window_mismatch`), then the timed-grid reasons of countRead (422). Else one `WordListRead`
 * with the raw counts and the pinned cut table, in the teacher's name.
 */
export const recordWordListReadDecider: Decider<RecordWordListRead, NewEvent<WordListReadData>, WordListReadState> = {
  initialState: () => ({ supersedesVoidId: null, recorded: null }),
  evolve: (state, recorded) => {
    const [event] = assessmentEvents([recorded]);
    return event?.type === WORD_LIST_READ ? { ...state, recorded: event.data } : state;
  },
  decide(command, { supersedesVoidId }) {
    const scored = scoreWordListRead(command);
    if (!scored.ok) throw refusal(scored.reason, command, scored.field);
    const { list, place } = command.facts;
    const { counts, read } = scored;
    const data: WordListReadData = {
      attemptId: command.attemptId,
      kind: 'oral_word_list',
      cell: scored.cell,
      organizationId: place.organizationId,
      schoolId: place.schoolId,
      classId: place.classId,
      studentId: command.input.studentId,
      grade: place.grade,
      academicYear: place.academicYear,
      window: scored.window,
      startedAt: command.at.toISOString(),
      startedBy: command.teacherId,
      supersedesVoidId,
      wordListId: list.id,
      wordListVersion: list.version,
      wordCount: list.wordCount,
      timing: list.timing,
      lastWordIndex: counts.lastWordIndex,
      elapsedSeconds: counts.elapsedSeconds,
      errorIndices: scored.errorIndices,
      attempted: counts.attempted,
      errors: counts.errors,
      droppedMarks: counts.droppedMarks,
      cut: read.cut,
      rateCut: read.rateCut,
      result: resultSummary(read),
    };
    return [
      {
        eventId: deterministicEventId('word-list-read', command.attemptId),
        type: WORD_LIST_READ,
        data,
        metadata: { organizationId: place.organizationId, actorUserId: command.teacherId },
      },
    ];
  },
};

/** The facts a read is decided on (`WordListReadFacts`); the tenant's 404 and the teacher's 403 first. */
async function readWordListReadFacts(
  sql: Sql,
  caller: Caller,
  input: WordListReadInput,
  at: Date,
): Promise<WordListReadFacts> {
  const list = await wordListInTenant(sql, caller, input.wordListId);
  const place = await teacherPlace(sql, caller, input.studentId);
  const [cell, window] = await Promise.all([wordListCellOf(sql, list.skillId), openWindowFact(sql, place, at)]);
  if (!cell || !window.open) return { list, place, cell, window, cuts: null };
  const address = { cell, grade: place.grade, window: window.open };
  const [table, status] = await Promise.all([
    currentReadCuts(sql, place.organizationId, address),
    scoringStatusOf(sql, cell, place.grade),
  ]);
  return { list, place, cell, window, cuts: { table, status } };
}

/**
 * Records a word-list read whole (stream `wlread-<uuid>`, one `WordListRead` event) and counts the list's use
 * in the same transaction. Checked in order, and nothing is written on a refusal: the list's tenant (404), the
 * teacher (403), then the decider's refusals. The child's cell is locked while the void it replaces is read.
 */
export async function recordWordListRead(
  deps: { sql: Sql; store: EventStore },
  caller: Caller,
  input: WordListReadInput,
  /** `deps.clock`'s now from the route: the open window is decided at it, and the read's `at` is it. */
  options: { now?: Date } = {},
) {
  const at = options.now ?? new Date();
  const facts = await readWordListReadFacts(deps.sql, caller, input, at);
  const attemptId = randomUUID();
  const streamId = streams.wordListRead(attemptId);
  const command: RecordWordListRead = { attemptId, teacherId: caller.userId, input, at, facts };
  await handleCommand(deps, {
    context: assessmentCommands,
    streamId,
    decider: recordWordListReadDecider,
    command,
    load: {
      name: 'the void the child’s word-list attempt replaces, under the cell’s lock',
      inTransaction: true,
      async load(uow) {
        const slot = await oralAttemptSlot(uow.sql, facts.place, input.studentId, facts.window.open, facts.cell);
        return { state: { ...slot, recorded: null }, version: 'no_stream' };
      },
    },
    // The list's use is counted with the read, in its transaction.
    followUp: () => async (uow) => {
      await recordWordListUse(uow.sql, { wordListId: facts.list.id, assessmentRef: streamId });
    },
  });
  const scored = scoreWordListRead(command);
  if (!scored.ok) throw new Error(`word-list read ${attemptId}: recorded but not scored`);
  const { counts, read } = scored;
  return {
    id: attemptId,
    studentId: input.studentId,
    wordListId: facts.list.id,
    wordListVersion: facts.list.version,
    cell: scored.cell,
    grade: facts.place.grade,
    window: scored.window,
    at: at.toISOString(),
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
