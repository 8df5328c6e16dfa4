import type { AnySql } from '@qiraa/db';

/**
 * The organization a stream belongs to, for a query that names `es_streams` as `s`: the one its events'
 * metadata named (set by es_append, migration 0044), else that of the first student its events name, else
 * none (a platform stream: super scope only).
 */
export const streamOrganization = (sql: AnySql) => sql`coalesce(s.organization_id, (
  select u.organization_id from es_stream_students ss join users u on u.id = ss.student_id
  where ss.stream_id = s.stream_id order by ss.student_id limit 1))`;

/** `and <the stream's organization> = org`, or nothing for the super scope (organization null). */
export const inOrganization = (sql: AnySql, organizationId: string | null) =>
  organizationId === null ? sql`` : sql`and ${streamOrganization(sql)} = ${organizationId}`;
