import { eventsAs, type RecordedEvent } from '@qiraa/eventstore';

/** Event type of every audit stream entry. */
export const AUDIT_RECORDED = 'AuditRecorded';

/** Detail values are codes, ids, flags or numbers: never free text (no free text on student records). */
export type AuditDetail = Record<string, string | number | boolean | null>;

export interface AuditRecordedData {
  /** Public id of the entry, e.g. `void:12`; `audit:<eventId>` when the producer names none. */
  auditId?: string;
  /** What happened, from a closed list owned by the producing context (e.g. `measurement_void`). */
  eventType: string;
  organizationId: string | null;
  actorUserId: number | null;
  targetStudentId?: number | null;
  targetClassId?: string | null;
  detail?: AuditDetail;
  occurredAt: string;
}

/** The audit streams' one event, typed (docs/architecture.md, "Typed events"). */
export type AuditEvent = { type: typeof AUDIT_RECORDED; data: AuditRecordedData };

/** Events read from an audit stream (the one typed boundary: `eventsAs`). */
export const auditEvents = (events: readonly RecordedEvent[]) => eventsAs<AuditEvent>(events);

/** One stream per organization; platform-level events (super scope) go to `audit-platform`. */
export const auditStreamId = (organizationId: string | null) => `audit-${organizationId ?? 'platform'}`;
