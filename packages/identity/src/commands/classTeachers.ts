import type { Sql } from '@qiraa/db';
import { conflict, notFound } from '@qiraa/http-kit';
import type { Caller } from '../engine/caller';
import type { Persona } from '../engine/permissions';
import { classInScope, unprocessableField } from '../queries/scope';

/**
 * Assigns a teacher to a class (several per class). The user must be a TEACHER of the class's organization:
 * a missing user or one of another organization is 404, another persona 422 `not_a_teacher`, an existing
 * link 409 `already_assigned`.
 */
export async function assignClassTeacher(sql: Sql, caller: Caller, classId: string, teacherUserId: number) {
  const cls = await classInScope(sql, caller, classId, 'manage');
  const [user] = await sql<{ organization_id: string | null; primary_persona: Persona }[]>`
    select organization_id, primary_persona from users where id = ${teacherUserId}`;
  if (!user || user.organization_id !== cls.organization_id) throw notFound('user');
  if (user.primary_persona !== 'TEACHER') {
    throw unprocessableField('teacherUserId', 'must be a TEACHER of the organization', 'not_a_teacher');
  }
  const inserted = await sql`
    insert into class_teachers (class_id, teacher_user_id) values (${cls.id}, ${teacherUserId})
    on conflict do nothing returning 1`;
  if (inserted.length === 0) throw conflict('already_assigned', 'this teacher is already assigned to the class');
  return { classId: cls.id, teacherUserId };
}

/** Removes a teacher from a class; 404 when that teacher is not assigned to it. */
export async function removeClassTeacher(sql: Sql, caller: Caller, classId: string, teacherUserId: number) {
  const cls = await classInScope(sql, caller, classId, 'manage');
  const removed = await sql`
    delete from class_teachers where class_id = ${cls.id} and teacher_user_id = ${teacherUserId} returning 1`;
  if (removed.length === 0) throw notFound('class teacher');
}
