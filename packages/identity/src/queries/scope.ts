import type { AnySql } from '@qiraa/db';
import { ApiError, notFound, permissionDenied } from '@qiraa/http-kit';
import { type Caller, holds, isSuperAdmin } from '../engine/caller';

/**
 * The tenant rule in one place: another organization's resource is 404, exactly like a missing id; a
 * resource of the caller's own organization that their role cannot reach is 403.
 */
export function inOrganizationOr404(caller: Caller, organizationId: string | null | undefined, what: string): void {
  if (organizationId === null || organizationId === undefined) throw notFound(what);
  if (!isSuperAdmin(caller) && caller.organizationId !== organizationId) throw notFound(what);
}

export interface ClassRow {
  id: string;
  school_id: string;
  organization_id: string;
  name: string;
  grade: number;
  academic_year: string;
  login_code: string;
  login_code_expires_at: Date;
}

export type ClassAccess = 'read' | 'manage_students' | 'manage';

/**
 * A class the caller may act on. Read: its teachers, the principal of its school, organization staff.
 * Manage students: its teachers (MANAGE_CLASS_STUDENTS) or organization admins. Manage: organization admins.
 */
export async function classInScope(
  sql: AnySql,
  caller: Caller,
  classId: string,
  access: ClassAccess,
): Promise<ClassRow> {
  const [row] = await sql<ClassRow[]>`select * from classes where id = ${classId}`;
  inOrganizationOr404(caller, row?.organization_id, 'class');
  const cls = row!;
  if (holds(caller, 'MANAGE_ORG')) return cls;
  const teaches = async () =>
    (await sql`select 1 from class_teachers where class_id = ${classId} and teacher_user_id = ${caller.userId}`)
      .length > 0;
  const allowed =
    access === 'manage'
      ? false
      : access === 'manage_students'
        ? holds(caller, 'MANAGE_CLASS_STUDENTS') && (await teaches())
        : holds(caller, 'VIEW_ORGANIZATION') ||
          (holds(caller, 'VIEW_SCHOOL') && caller.schoolId === cls.school_id) ||
          (holds(caller, 'VIEW_OWN_CLASSES') && (await teaches()));
  if (!allowed) throw permissionDenied();
  return cls;
}

export function requireAny(caller: Caller, ...permissions: Parameters<typeof holds>[1][]): void {
  if (!holds(caller, ...permissions)) throw permissionDenied();
}

export const unprocessableField = (field: string, issue: string, reason?: string) =>
  new ApiError(422, 'VALIDATION_ERROR', 'request failed validation', {
    details: [{ field, issue }],
    ...(reason ? { reason } : {}),
  });
