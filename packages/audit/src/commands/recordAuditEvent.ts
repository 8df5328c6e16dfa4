import type { UnitOfWork } from '@qiraa/db';
import { type EventStore, randomEventId } from '@qiraa/eventstore';
import { AUDIT_RECORDED, type AuditRecordedData, auditStreamId } from '../events';

export interface RecordAuditEvent extends Omit<AuditRecordedData, 'occurredAt'> {
  occurredAt?: Date;
  /** Give one to make a retried command record the entry once. */
  eventId?: string;
}

/** Appends one audit entry; with a unit of work it commits together with the change it describes. */
export async function recordAuditEvent(store: EventStore, entry: RecordAuditEvent, uow?: UnitOfWork) {
  const { eventId = randomEventId(), occurredAt = new Date(), ...rest } = entry;
  const data: AuditRecordedData = { ...rest, occurredAt: occurredAt.toISOString() };
  const result = await store.append(
    auditStreamId(entry.organizationId),
    [
      {
        eventId,
        type: AUDIT_RECORDED,
        data,
        metadata: { actorUserId: entry.actorUserId, organizationId: entry.organizationId },
      },
    ],
    // Alone, it shares a commit with the appends and commands arriving at about the same time (when the
    // process combines writes): one organization's audit stream is one row every entry of it updates.
    { expected: 'any', uow, combine: true },
  );
  if (result.kind === 'conflict') throw new Error('audit append with expected "any" cannot conflict');
  return { eventId, auditId: entry.auditId ?? `audit:${eventId}` };
}
