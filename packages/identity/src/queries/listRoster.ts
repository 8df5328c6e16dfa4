import type { Sql } from '@qiraa/db';
import type { Caller } from '../engine/caller';
import type { StudentGender } from '../engine/studentGender';
import { classInScope } from './scope';

/** The roster of a class: active students by quickCode, then the deactivated ones. */
export async function listRoster(sql: Sql, caller: Caller, classId: string) {
  const cls = await classInScope(sql, caller, classId, 'read');
  const rows = await sql<
    {
      student_user_id: bigint;
      full_name_ar: string;
      quick_code: string;
      gender: StudentGender | null;
      active: boolean;
    }[]
  >`
    select s.student_user_id, u.full_name_ar, s.quick_code, u.gender, s.active
    from class_students s join users u on u.id = s.student_user_id
    where s.class_id = ${cls.id}
    order by s.active desc, s.quick_code, s.student_user_id`;
  return rows.map((r) => ({
    studentId: Number(r.student_user_id),
    fullNameAr: r.full_name_ar,
    quickCode: r.quick_code,
    ...(r.gender ? { gender: r.gender } : {}),
    active: r.active,
  }));
}
