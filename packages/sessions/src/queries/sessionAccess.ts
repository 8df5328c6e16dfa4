import type { AnySql } from '@qiraa/db';
import { notFound, permissionDenied } from '@qiraa/http-kit';
import { type Caller, classRecord, holds, inOrganizationOr404, isSuperAdmin, teachesClass } from '@qiraa/identity';

export interface ClassInfo {
  id: string;
  organization_id: string;
  school_id: string;
  grade: number;
}

/** A class the caller reaches at all: 404 when missing or another organization's (tenant before permission). */
export async function classOr404(sql: AnySql, caller: Caller, classId: string): Promise<ClassInfo> {
  const row = await classRecord(sql, classId);
  inOrganizationOr404(caller, row?.organizationId, 'class');
  return { id: row!.id, organization_id: row!.organizationId, school_id: row!.schoolId, grade: row!.grade };
}

/**
 * Teacher routes are ClassTeacher-scoped (spec): a teacher of the class (VIEW_OWN_CLASSES and a class_teachers
 * row) or the super-admin; anyone else of the organization is 403.
 */
export async function requireClassTeacher(sql: AnySql, caller: Caller, classId: string): Promise<ClassInfo> {
  const cls = await classOr404(sql, caller, classId);
  if (isSuperAdmin(caller)) return cls;
  if (!holds(caller, 'VIEW_OWN_CLASSES')) throw permissionDenied();
  if (!(await teachesClass(sql, classId, caller.userId))) throw permissionDenied('not a teacher of this class');
  return cls;
}

/** The session's organization and class, 404 for a missing one or another organization's. */
export async function sessionPlace(
  sql: AnySql,
  caller: Caller,
  sessionId: string,
): Promise<{ organizationId: string; classId: string }> {
  const [row] = await sql<{ organization_id: string; class_id: string }[]>`
    select organization_id, class_id from ses_sessions where id = ${sessionId}`;
  inOrganizationOr404(caller, row?.organization_id, 'session');
  if (!row) throw notFound('session');
  return { organizationId: row.organization_id, classId: row.class_id };
}
