import type { AnySql } from '@qiraa/db';
import type { StreamScope } from '../auditReads';

/**
 * The organization of the stream a query names `s` (es_streams): the one its events' metadata named, else that of
 * the first student its events name, read through the caller's (identity's) fragment, else null.
 */
export const streamOrganization = (sql: AnySql, scope: StreamScope) => sql`coalesce(s.organization_id, (
  select o.organization_id from es_stream_students ss
  join lateral (${scope.studentOrganization(sql, sql`ss.student_id`)}) o on true
  where ss.stream_id = s.stream_id order by ss.student_id limit 1))`;

/** `and <the stream's organization> = scope's`, or nothing for an unscoped read. */
export const inScope = (sql: AnySql, scope: StreamScope | null | undefined) =>
  scope ? sql`and ${streamOrganization(sql, scope)} = ${scope.organizationId}` : sql``;
