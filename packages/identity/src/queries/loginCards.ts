import type { Sql } from '@qiraa/db';
import type { Caller } from '../engine/caller';
import { classInScope } from './scope';

/**
 * Printable login cards: the class's current code and one card per active student, by quickCode, with the
 * child's home-login name.
 */
export async function loginCards(sql: Sql, caller: Caller, classId: string) {
  const cls = await classInScope(sql, caller, classId, 'read');
  const students = await sql<
    { student_user_id: bigint; full_name_ar: string; quick_code: string; login_name: string }[]
  >`
    select s.student_user_id, u.full_name_ar, s.quick_code, u.login_name
    from class_students s join users u on u.id = s.student_user_id
    where s.class_id = ${cls.id} and s.active
    order by s.quick_code`;
  return {
    classId: cls.id,
    className: cls.name,
    loginCode: cls.login_code,
    loginCodeExpiresAt: cls.login_code_expires_at.toISOString(),
    cards: students.map((s) => ({
      studentId: Number(s.student_user_id),
      fullNameAr: s.full_name_ar,
      quickCode: s.quick_code,
      loginName: s.login_name,
    })),
  };
}
