import type { AnySql, Sql } from '@qiraa/db';
import { conflict, notFound } from '@qiraa/http-kit';
import type { Caller } from '../engine/caller';
import type { Persona } from '../engine/permissions';
import { inOrganizationOr404, unprocessableField } from '../queries/scope';

/** A student of the caller's organization (super scope: of any), else 404 like a missing id. */
export async function studentInOrganization(sql: AnySql, caller: Caller, studentId: number) {
  const [row] = await sql<{ organization_id: string }[]>`
    select organization_id from users where id = ${studentId} and primary_persona = 'STUDENT'`;
  inOrganizationOr404(caller, row?.organization_id, 'student');
  return { id: studentId, organizationId: row!.organization_id };
}

/**
 * Links a parent to a child (ParentStudent; several parents per child). Both must be of the caller's
 * organization, the child's organization for a super-scope caller (else 404); a user of another persona is
 * 422 `not_a_parent`; an existing link is 409 `already_linked`.
 */
export async function linkParent(sql: Sql, caller: Caller, studentId: number, parentUserId: number) {
  const student = await studentInOrganization(sql, caller, studentId);
  const [parent] = await sql<{ organization_id: string | null; primary_persona: Persona }[]>`
    select organization_id, primary_persona from users where id = ${parentUserId}`;
  if (!parent || parent.organization_id !== student.organizationId) throw notFound('user');
  if (parent.primary_persona !== 'PARENT') {
    throw unprocessableField('parentUserId', 'must be a PARENT of the organization', 'not_a_parent');
  }
  const inserted = await sql`
    insert into parent_students (student_user_id, parent_user_id) values (${studentId}, ${parentUserId})
    on conflict do nothing returning 1`;
  if (inserted.length === 0) throw conflict('already_linked', 'this parent is already linked to the child');
  return { studentId, parentUserId };
}

/** Removes a parent-to-child link; 404 when there is none. */
export async function unlinkParent(sql: Sql, caller: Caller, studentId: number, parentUserId: number) {
  await studentInOrganization(sql, caller, studentId);
  const removed = await sql`
    delete from parent_students where student_user_id = ${studentId} and parent_user_id = ${parentUserId} returning 1`;
  if (removed.length === 0) throw notFound('parent link');
}
