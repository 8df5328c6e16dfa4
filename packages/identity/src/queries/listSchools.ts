import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, holds, isSuperAdmin } from '../engine/caller';
import { decodeNameCursor, namePage } from './namePage';
import { inOrganizationOr404 } from './scope';

interface SchoolRow {
  id: string;
  organization_id: string;
  name: string;
  country: string;
}

const SCHOOL_ID = /^sch_[A-Za-z0-9]{12}$/;

/** The schools a caller reaches, as a condition on `schools s`; null when their role reaches none (403). */
function reach(sql: AnySql, caller: Caller) {
  if (isSuperAdmin(caller)) return sql`true`;
  if (holds(caller, 'MANAGE_ORG', 'VIEW_ORGANIZATION')) return sql`s.organization_id = ${caller.organizationId}`;
  if (holds(caller, 'VIEW_SCHOOL')) return sql`s.id = ${caller.schoolId}`;
  if (holds(caller, 'VIEW_OWN_CLASSES')) {
    return sql`s.id in (select c.school_id from classes c join class_teachers t on t.class_id = c.id
                        where t.teacher_user_id = ${caller.userId})`;
  }
  return null;
}

/**
 * GET /api/schools: the schools in the caller's reach (all; the organization's; the principal's school; the
 * schools of a teacher's classes), optionally of one organization. The named organization is resolved
 * first: another organization's, or a missing one, is 404 for every caller but the super-scope
 * administrator (who gets 404 only for a missing one); then a role without any school in reach (parent,
 * student) is 403. By name, then id, cursor-paged.
 */
export async function listSchools(
  sql: AnySql,
  caller: Caller,
  query: { organizationId?: string; cursor?: string; limit: number },
) {
  const organizationId = query.organizationId ?? null;
  if (organizationId !== null) {
    const [org] = await sql<{ id: string }[]>`select id from organizations where id = ${organizationId}`;
    inOrganizationOr404(caller, org?.id, 'organization');
  }
  const scope = reach(sql, caller);
  if (scope === null) throw permissionDenied();
  const after = query.cursor === undefined ? null : decodeNameCursor(query.cursor, SCHOOL_ID);
  const rows = await sql<SchoolRow[]>`
    select s.id, s.organization_id, s.name, s.country
    from schools s
    where ${scope}
      ${organizationId === null ? sql`` : sql`and s.organization_id = ${organizationId}`}
      ${after ? sql`and (s.name, s.id) > (${after.name}, ${after.id})` : sql``}
    order by s.name, s.id
    limit ${query.limit + 1}`;
  return namePage(rows, query.limit, (r) => ({
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    country: r.country,
  }));
}
