import { recordAuditEvent } from '@qiraa/audit';
import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { Sql, TransactionSql } from '@qiraa/db';
import {
  deterministicEventId,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  readStreamThrough,
} from '@qiraa/eventstore';
import { type Clock, systemClock } from '@qiraa/kernel';
import { assessmentCommands } from '../commandContext';
import type { ScreeningWindow } from '../engine/calendar';
import {
  ATTEMPT_VOIDED,
  type AttemptKind,
  type AttemptVoided,
  assessmentEvents,
  SITTING_STOPPED,
  type SittingStopped,
  streams,
  type VoidReason,
} from '../events';
import type { PageClass } from '../queries/heldClass';
import { endsAttempt, STREAM_RETRIES } from './stopOpenSitting';

export const MEASUREMENT_VOID = 'measurement_void';

export interface VoidRequest {
  cls: PageClass;
  kind: AttemptKind;
  targetId: string;
  reason: VoidReason;
  actorUserId: number;
}

export interface VoidRecord {
  id: string;
  academicYear: string;
  evidenceWindow: ScreeningWindow;
  endedActiveSitting: boolean;
  voidKind: AttemptKind;
  voidReason: VoidReason;
}

/** Why a void is refused (closed: the route answers 404, 422 and 409 for them). */
export type VoidRefusal = 'not_found' | 'not_a_window_sitting' | 'already_voided';

export type VoidResult =
  | { kind: 'voided'; record: VoidRecord }
  | { kind: 'not_found' }
  | { kind: 'not_a_window_sitting' }
  | { kind: 'already_voided' };

/** A void's refusal, thrown by the decider and answered as a `VoidResult`. */
export class VoidRefused extends Error {
  constructor(readonly reason: VoidRefusal) {
    super(reason);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The attempt's `asm_attempts` row as the void reads it. */
export interface VoidTarget {
  readonly kind: AttemptKind;
  readonly classId: string;
  readonly studentId: number;
  readonly academicYear: string;
  readonly window: ScreeningWindow;
  readonly voidId: number | null;
}

export interface VoidAttempt {
  readonly attemptId: string;
  readonly cls: PageClass;
  readonly kind: AttemptKind;
  readonly reason: VoidReason;
  readonly actorUserId: number;
}

/** What a void is decided on: the attempt's row (locked), its stream folded, and the void id drawn for it. */
export interface VoidState {
  readonly target: VoidTarget | null;
  /** The stream holds events, and whether one of them ends the attempt. */
  readonly opened: boolean;
  readonly ended: boolean;
  /** The stream's void: already there, or the one this command appended. */
  readonly voided: AttemptVoided | null;
  /** The void's number and instant, drawn only for an attempt the void can take. */
  readonly drawn: { readonly voidId: number; readonly at: string } | null;
}

/**
 * A void's rules, in order: not an attempt of this class (not_found); not of the named kind or not of the
 * class's academic year (not_a_window_sitting); voided already (already_voided). Else `AttemptVoided` on the
 * attempt's own stream, after `SittingStopped { reason: 'voided' }` when a digital sitting is still open (an
 * open oral reading is ended by the void itself), under ids of the attempt, so a void is stored once.
 */
export const voidAttemptDecider: Decider<VoidAttempt, NewEvent<SittingStopped | AttemptVoided>, VoidState> = {
  initialState: () => ({ target: null, opened: false, ended: false, voided: null, drawn: null }),
  evolve(state, recorded) {
    const [event] = assessmentEvents([recorded]);
    const voided = !state.voided && event?.type === ATTEMPT_VOIDED ? event.data : state.voided;
    return { ...state, opened: true, ended: state.ended || endsAttempt(recorded.type), voided };
  },
  decide(command, { target, opened, ended, voided, drawn }) {
    if (!target || target.classId !== command.cls.id) throw new VoidRefused('not_found');
    if (target.kind !== command.kind || target.academicYear !== command.cls.academicYear) {
      throw new VoidRefused('not_a_window_sitting');
    }
    if (target.voidId !== null || voided) throw new VoidRefused('already_voided');
    if (!drawn) throw new Error(`attempt ${command.attemptId}: no void id drawn for a voidable attempt`);
    const { attemptId } = command;
    const open = target.kind !== 'oral_word_list' && opened && !ended;
    const metadata = { actorUserId: command.actorUserId, organizationId: command.cls.organizationId };
    const events: NewEvent<SittingStopped | AttemptVoided>[] = [];
    if (open && target.kind === 'digital_sitting') {
      events.push({
        eventId: deterministicEventId('sitting-stopped', attemptId),
        type: SITTING_STOPPED,
        data: { attemptId, at: drawn.at, reason: 'voided' },
        metadata,
      });
    }
    events.push({
      eventId: deterministicEventId('attempt-voided', attemptId),
      type: ATTEMPT_VOIDED,
      data: {
        attemptId,
        kind: target.kind,
        voidId: drawn.voidId,
        reason: command.reason,
        actorUserId: command.actorUserId,
        endedActiveSitting: open,
        at: drawn.at,
      },
      metadata,
    });
    return events;
  },
};

interface AttemptRow {
  kind: AttemptKind;
  class_id: string;
  student_id: string;
  academic_year: string;
  evidence_window: ScreeningWindow;
  void_id: string | null;
}

/**
 * The void's state in its transaction: the attempt's row locked first (`for update`), so of parallel voids one
 * writes and the others then find it voided; its stream through the transaction; and, sent behind the lock, the
 * next void id, drawn only when the row is one the void can take (so a refusal draws no number; the conditions
 * are the decider's). `now`: the clock's, the void's instant.
 */
async function loadVoidState(
  store: EventStore,
  tx: TransactionSql,
  command: VoidAttempt,
  now: Date,
): Promise<{ state: VoidState; streamId?: string; version: bigint }> {
  const initial = voidAttemptDecider.initialState();
  const { attemptId, cls } = command;
  const [row] = await tx<AttemptRow[]>`
    select kind, class_id, student_id, academic_year, evidence_window, void_id
    from asm_attempts where attempt_id = ${attemptId} for update`;
  if (!row) return { state: initial, version: 0n };
  const streamId = streams.ofKind(row.kind, attemptId);
  const [events, [drawn]] = await Promise.all([
    readStreamThrough(store, tx, streamId),
    tx<{ id: string }[]>`
      select nextval('asm_void_id_seq') as id from asm_attempts
      where attempt_id = ${attemptId} and void_id is null and class_id = ${cls.id}
        and kind = ${command.kind} and academic_year = ${cls.academicYear}`,
  ]);
  const target: VoidTarget = {
    kind: row.kind,
    classId: row.class_id,
    studentId: Number(row.student_id),
    academicYear: row.academic_year,
    window: row.evidence_window,
    voidId: row.void_id === null ? null : Number(row.void_id),
  };
  const folded = events.reduce<VoidState>(voidAttemptDecider.evolve, {
    ...initial,
    target,
    drawn: drawn ? { voidId: Number(drawn.id), at: now.toISOString() } : null,
  });
  return { state: folded, streamId, version: lastVersion(events) };
}

const lastVersion = (events: readonly RecordedEvent[]) => events.at(-1)?.streamVersion ?? 0n;

/** The void's record (its audit id `void:<n>`) from the state after the append. */
const recordOf = (target: VoidTarget, voided: AttemptVoided): VoidRecord => ({
  id: `void:${voided.voidId}`,
  academicYear: target.academicYear,
  evidenceWindow: target.window,
  endedActiveSitting: voided.endedActiveSitting,
  voidKind: target.kind,
  voidReason: voided.reason,
});

/**
 * Voids one attempt of a class: the decider's events on the attempt's own stream and the audit event
 * `measurement_void` (`void:<n>`), in one transaction. The append names the stream version the decision was
 * made on, so an answer landing meanwhile makes it decide again (`handleCommand`'s retry). A refusal is
 * answered as its `VoidResult`; nothing is written. `deps.clock`: the runtime's (the route's `ContextDeps`); the
 * void's `at` (its events and its audit entry) is its now, read per attempt. The wall clock only without one.
 */
export async function voidAttempt(
  deps: { sql: Sql; store: EventStore; clock?: Clock },
  input: VoidRequest,
): Promise<VoidResult> {
  // Not a uuid: no attempt has that id (and the column would refuse it).
  if (!UUID.test(input.targetId)) return { kind: 'not_found' };
  const attemptId = input.targetId.toLowerCase();
  const command: VoidAttempt = {
    attemptId,
    cls: input.cls,
    kind: input.kind,
    reason: input.reason,
    actorUserId: input.actorUserId,
  };
  try {
    const { state } = await handleCommand(deps, {
      context: assessmentCommands,
      decider: voidAttemptDecider,
      command,
      load: {
        name: 'the attempt’s row under its lock, its stream, the next void id',
        inTransaction: true,
        load: (uow) => loadVoidState(deps.store, uow.sql, command, (deps.clock ?? systemClock).now()),
      },
      attempts: STREAM_RETRIES,
      followUp: ({ target, voided }) => {
        if (!target || !voided) return null;
        const record = recordOf(target, voided);
        return async (uow) => {
          await recordAuditEvent(
            deps.store,
            {
              eventId: deterministicEventId(MEASUREMENT_VOID, voided.voidId),
              auditId: record.id,
              eventType: MEASUREMENT_VOID,
              organizationId: input.cls.organizationId,
              actorUserId: input.actorUserId,
              targetStudentId: target.studentId,
              targetClassId: target.classId,
              occurredAt: new Date(voided.at),
              detail: {
                voidKind: target.kind,
                voidReason: voided.reason,
                attemptId,
                academicYear: target.academicYear,
                evidenceWindow: target.window,
                endedActiveSitting: voided.endedActiveSitting,
              },
            },
            uow,
          );
        };
      },
      onConflict: () => new Error(`attempt ${attemptId}: the stream kept moving; not voided`),
    });
    if (!state.target || !state.voided) throw new Error(`attempt ${attemptId}: not voided`);
    return { kind: 'voided', record: recordOf(state.target, state.voided) };
  } catch (error) {
    if (error instanceof VoidRefused) return { kind: error.reason };
    throw error;
  }
}
