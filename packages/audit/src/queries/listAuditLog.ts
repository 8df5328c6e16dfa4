import type { AnySql } from '@qiraa/db';
import { validationFailed } from '@qiraa/http-kit';
import { type AuditLogEntry, type AuditLogRow, toAuditLogEntry } from './auditLogEntry';

export const AUDIT_LOG_DEFAULT_LIMIT = 50;
export const AUDIT_LOG_MAX_LIMIT = 200;

export interface AuditLogFilter {
  eventType?: string;
  actorUserId?: number;
  targetStudentId?: number;
  /** ISO 8601 datetime, inclusive. */
  from?: string;
  /** ISO 8601 datetime, exclusive. */
  to?: string;
  /** Only this organization's entries (platform-level entries have none and are then left out). */
  organizationId?: string;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** 1 to 200, default 50. */
  limit?: number;
}

export interface AuditLogPage {
  items: AuditLogEntry[];
  /** null on the last page. */
  nextCursor: string | null;
}

interface CursorKey {
  /** occurred_at with microseconds, as PostgreSQL stores it (a JS Date would drop them). */
  at: string;
  id: string;
}

const encodeCursor = (key: CursorKey) => Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');

function decodeCursor(cursor: string): CursorKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      !Number.isNaN(Date.parse(value[0]))
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // reported below
  }
  throw validationFailed([{ field: 'cursor', issue: 'is not a cursor this list issued' }]);
}

/**
 * The audit log, newest first (occurred_at desc, id desc), a page at a time. Keyset paging: the opaque
 * cursor carries the last row's (occurred_at, id), so rows recorded meanwhile never shift a page.
 */
export async function listAuditLog(sql: AnySql, filter: AuditLogFilter = {}): Promise<AuditLogPage> {
  const limit = Math.min(Math.max(filter.limit ?? AUDIT_LOG_DEFAULT_LIMIT, 1), AUDIT_LOG_MAX_LIMIT);
  if (filter.from && filter.to && Date.parse(filter.from) > Date.parse(filter.to)) {
    throw validationFailed([{ field: 'to', issue: 'must not be before from' }]);
  }
  const after = filter.cursor === undefined ? null : decodeCursor(filter.cursor);
  const conditions = [
    filter.organizationId === undefined ? null : sql`organization_id = ${filter.organizationId}`,
    filter.eventType === undefined ? null : sql`event_type = ${filter.eventType}`,
    filter.actorUserId === undefined ? null : sql`actor_user_id = ${filter.actorUserId}`,
    filter.targetStudentId === undefined ? null : sql`target_student_id = ${filter.targetStudentId}`,
    filter.from === undefined ? null : sql`occurred_at >= ${filter.from}::timestamptz`,
    filter.to === undefined ? null : sql`occurred_at < ${filter.to}::timestamptz`,
    after === null ? null : sql`(occurred_at, id) < (${after.at}::timestamptz, ${after.id}::text)`,
  ].filter((c) => c !== null);
  const where = conditions.reduce((all, c) => sql`${all} and ${c}`, sql`true`);
  const rows = await sql<(AuditLogRow & { cursor_at: string })[]>`
    select id, event_type, organization_id, actor_user_id, target_student_id, target_class_id, detail, occurred_at,
           to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
    from audit_log
    where ${where}
    order by occurred_at desc, id desc
    limit ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toAuditLogEntry),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}
