import type { AnySql } from '@qiraa/db';
import { type AuditLogEntry, type AuditLogRow, toAuditLogEntry } from './auditLogEntry';

/**
 * One audit-log entry by its public id (`audit:<uuid>`, `void:<int>`, …). With `organizationId` only
 * that organization's entries are found: another organization's entry reads as absent (null).
 */
export async function getAuditEntry(
  sql: AnySql,
  id: string,
  scope: { organizationId?: string } = {},
): Promise<AuditLogEntry | null> {
  const [row] = await sql<AuditLogRow[]>`
    select id, event_type, organization_id, actor_user_id, target_student_id, target_class_id, detail, occurred_at
    from audit_log
    where id = ${id} ${scope.organizationId === undefined ? sql`` : sql`and organization_id = ${scope.organizationId}`}`;
  return row ? toAuditLogEntry(row) : null;
}
