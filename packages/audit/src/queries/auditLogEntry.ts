import type { AuditDetail } from '../events';

/** One row of the audit-log read model as the admin routes return it. */
export interface AuditLogEntry {
  /** `audit:<eventId>`, or the producer's own id such as `void:12`. */
  id: string;
  eventType: string;
  organizationId: string | null;
  actorUserId: number | null;
  targetStudentId: number | null;
  targetClassId: string | null;
  detail: AuditDetail;
  /** ISO 8601 UTC. */
  occurredAt: string;
}

export interface AuditLogRow {
  id: string;
  event_type: string;
  organization_id: string | null;
  actor_user_id: bigint | null;
  target_student_id: bigint | null;
  target_class_id: string | null;
  detail: AuditDetail;
  occurred_at: Date;
}

const toNumber = (value: bigint | null) => (value === null ? null : Number(value));

export const toAuditLogEntry = (row: AuditLogRow): AuditLogEntry => ({
  id: row.id,
  eventType: row.event_type,
  organizationId: row.organization_id,
  actorUserId: toNumber(row.actor_user_id),
  targetStudentId: toNumber(row.target_student_id),
  targetClassId: row.target_class_id,
  detail: row.detail ?? {},
  occurredAt: row.occurred_at.toISOString(),
});
