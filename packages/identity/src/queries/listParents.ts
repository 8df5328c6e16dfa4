import type { Sql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { studentInOrganization } from '../commands/parentLinks';
import { type Caller, holds } from '../engine/caller';

/** The parents linked to a child: for organization admins, and for teachers of a class the child is active in. */
export async function listParents(sql: Sql, caller: Caller, studentId: number) {
  await studentInOrganization(sql, caller, studentId);
  if (!holds(caller, 'MANAGE_ORG')) {
    const teaches = holds(caller, 'VIEW_OWN_CLASSES')
      ? await sql`
          select 1 from class_students s join class_teachers t on t.class_id = s.class_id
          where s.student_user_id = ${studentId} and s.active and t.teacher_user_id = ${caller.userId}
          limit 1`
      : [];
    if (teaches.length === 0) throw permissionDenied();
  }
  const rows = await sql<{ id: bigint; full_name_ar: string; email: string }[]>`
    select u.id, u.full_name_ar, u.email
    from parent_students p join users u on u.id = p.parent_user_id
    where p.student_user_id = ${studentId}
    order by u.id`;
  return rows.map((r) => ({ parentUserId: Number(r.id), fullNameAr: r.full_name_ar, email: r.email }));
}
