import type { Sql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import type { Caller } from '../engine/caller';
import { classInScope } from '../queries/scope';

/**
 * Takes a student off a class's active roster: the quickCode is free again for a new student, and the
 * quickCode login of this student stops working. 404 when the student is not actively enrolled in the class.
 * `now`: the clock's (`deps.clock`), the enrollment's `deactivated_at`.
 */
export async function deactivateStudent(sql: Sql, caller: Caller, classId: string, studentId: number, now: Date) {
  const cls = await classInScope(sql, caller, classId, 'manage_students');
  const updated = await sql`
    update class_students set active = false, deactivated_at = ${now}
    where class_id = ${cls.id} and student_user_id = ${studentId} and active
    returning 1`;
  if (updated.length === 0) throw notFound('student');
  return { studentId, active: false as const };
}
