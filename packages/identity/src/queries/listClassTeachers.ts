import type { Sql } from '@qiraa/db';
import type { Caller } from '../engine/caller';
import { classInScope } from './scope';

/** The teachers of a class, for anyone who may read the class. */
export async function listClassTeachers(sql: Sql, caller: Caller, classId: string) {
  const cls = await classInScope(sql, caller, classId, 'read');
  const rows = await sql<{ id: bigint; full_name_ar: string; email: string }[]>`
    select u.id, u.full_name_ar, u.email
    from class_teachers t join users u on u.id = t.teacher_user_id
    where t.class_id = ${cls.id}
    order by u.id`;
  return rows.map((r) => ({ teacherUserId: Number(r.id), fullNameAr: r.full_name_ar, email: r.email }));
}
