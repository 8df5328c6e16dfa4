import { recordAuditEvent } from '@qiraa/audit';
import { inTransaction, type Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { recordEvidence } from '../commands/recordEvidence';
import {
  ATTEMPT_VOIDED,
  type AttemptKind,
  type AttemptVoided,
  SITTING_STOPPED,
  type SittingStopped,
  streams,
  type VoidReason,
} from '../events';
import type { PageClass } from '../page/heldClass';
import type { ScreeningWindow } from '../windows/calendar';
import { isOpenStream, STREAM_RETRIES, StreamMoved, streamVersionOf } from '../windows/stopOpenSitting';

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

export type VoidResult =
  | { kind: 'voided'; record: VoidRecord }
  | { kind: 'not_found' }
  | { kind: 'not_a_window_sitting' }
  | { kind: 'already_voided' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface AttemptRow {
  kind: AttemptKind;
  class_id: string;
  student_id: string;
  academic_year: string;
  evidence_window: ScreeningWindow;
  void_id: string | null;
}

/**
 * Voids one attempt of a class: `AttemptVoided` on the attempt's own stream (after `SittingStopped
 * { reason: 'voided' }` when a digital sitting is still open; an open oral reading is ended by the void
 * itself), and the audit event `measurement_void` (`void:<n>`), in one transaction.
 *
 * Refusals, in order: not an attempt of this class → not_found; not of the named kind or not of the
 * class's academic year → not_a_window_sitting; voided → already_voided. Concurrency: the attempt's
 * `asm_attempts` row is locked first, so of parallel voids one writes and the others then find it voided
 * (the void id sequence is drawn only after that check); the append names the stream version the decision
 * was made on, so an answer landing meanwhile makes it decide again.
 */
export async function voidAttempt(deps: { sql: Sql; store: EventStore }, input: VoidRequest): Promise<VoidResult> {
  if (!UUID.test(input.targetId)) return { kind: 'not_found' };
  const attemptId = input.targetId.toLowerCase();
  for (let round = 0; round < STREAM_RETRIES; round++) {
    const [row] = await deps.sql<AttemptRow[]>`
      select kind, class_id, student_id, academic_year, evidence_window, void_id
      from asm_attempts where attempt_id = ${attemptId}`;
    if (!row || row.class_id !== input.cls.id) return { kind: 'not_found' };
    if (row.kind !== input.kind || row.academic_year !== input.cls.academicYear)
      return { kind: 'not_a_window_sitting' };
    if (row.void_id !== null) return { kind: 'already_voided' };

    const streamId = streams.ofKind(row.kind, attemptId);
    const events = await deps.store.readStream(streamId);
    const open = row.kind !== 'oral_word_list' && isOpenStream(events);
    try {
      return await inTransaction(deps.sql, async (uow) => {
        const [locked] = await uow.sql<{ void_id: string | null }[]>`
          select void_id from asm_attempts where attempt_id = ${attemptId} for update`;
        if (locked?.void_id !== null) return { kind: 'already_voided' } as const;
        const [drawn] = await uow.sql<{ id: string; now: Date }[]>`select nextval('asm_void_id_seq') as id, now()`;
        const voidId = Number(drawn!.id);
        const at = drawn!.now.toISOString();
        const metadata = { actorUserId: input.actorUserId, organizationId: input.cls.organizationId };
        const appended: NewEvent[] = [];
        if (open && row.kind === 'digital_sitting') {
          const stopped: SittingStopped = { attemptId, at, reason: 'voided' };
          appended.push({
            eventId: deterministicEventId('sitting-stopped', attemptId),
            type: SITTING_STOPPED,
            data: stopped,
            metadata,
          });
        }
        const voided: AttemptVoided = {
          attemptId,
          kind: row.kind,
          voidId,
          reason: input.reason,
          actorUserId: input.actorUserId,
          endedActiveSitting: open,
          at,
        };
        appended.push({
          eventId: deterministicEventId('attempt-voided', attemptId),
          type: ATTEMPT_VOIDED,
          data: voided,
          metadata,
        });
        const result = await recordEvidence(uow, deps.store, streamId, appended, streamVersionOf(events));
        if (result.kind === 'conflict') throw new StreamMoved();
        if (result.kind === 'duplicate') return { kind: 'already_voided' } as const;
        const record: VoidRecord = {
          id: `void:${voidId}`,
          academicYear: row.academic_year,
          evidenceWindow: row.evidence_window,
          endedActiveSitting: open,
          voidKind: row.kind,
          voidReason: input.reason,
        };
        await recordAuditEvent(
          deps.store,
          {
            eventId: deterministicEventId(MEASUREMENT_VOID, voidId),
            auditId: record.id,
            eventType: MEASUREMENT_VOID,
            organizationId: input.cls.organizationId,
            actorUserId: input.actorUserId,
            targetStudentId: Number(row.student_id),
            targetClassId: row.class_id,
            occurredAt: drawn!.now,
            detail: {
              voidKind: row.kind,
              voidReason: input.reason,
              attemptId,
              academicYear: row.academic_year,
              evidenceWindow: row.evidence_window,
              endedActiveSitting: open,
            },
          },
          uow,
        );
        return { kind: 'voided', record } as const;
      });
    } catch (error) {
      if (!(error instanceof StreamMoved)) throw error;
    }
  }
  throw new Error(`attempt ${attemptId}: the stream kept moving; not voided`);
}
