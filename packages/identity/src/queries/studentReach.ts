import type { AnySql } from '@qiraa/db';
import { type Caller, holds, isSuperAdmin } from '../engine/caller';
import { inOrganizationOr404 } from './scope';

/** How the caller reaches a student (the closest relation wins), or null in the same organization without one. */
export type StudentReach = 'self' | 'super' | 'admin' | 'teacher' | 'parent' | 'principal' | 'manager';

export interface ReachedStudent {
  studentId: number;
  organizationId: string;
  reach: StudentReach | null;
}

/**
 * The tenant rule for a student: absent or of another organization → 404; otherwise the caller's relation
 * to the child, for the route to allow or refuse (403).
 */
export async function studentReach(sql: AnySql, caller: Caller, studentId: number): Promise<ReachedStudent> {
  const [student] = await sql<{ organization_id: string }[]>`
    select organization_id from users where id = ${studentId} and primary_persona = 'STUDENT'`;
  inOrganizationOr404(caller, student?.organization_id, 'student');
  const organizationId = student!.organization_id;
  const found = (reach: StudentReach | null): ReachedStudent => ({ studentId, organizationId, reach });
  if (caller.userId === studentId) return found('self');
  if (isSuperAdmin(caller)) return found('super');
  if (holds(caller, 'MANAGE_ORG')) return found('admin');
  if (holds(caller, 'VIEW_OWN_CLASSES')) {
    const [taught] = await sql`
      select 1 from class_students s join class_teachers t on t.class_id = s.class_id
      where s.student_user_id = ${studentId} and s.active and t.teacher_user_id = ${caller.userId} limit 1`;
    return found(taught ? 'teacher' : null);
  }
  if (holds(caller, 'VIEW_OWN_CHILDREN')) {
    const [linked] = await sql`
      select 1 from parent_students where student_user_id = ${studentId} and parent_user_id = ${caller.userId}`;
    return found(linked ? 'parent' : null);
  }
  if (holds(caller, 'VIEW_SCHOOL')) {
    const [inSchool] = await sql`
      select 1 from class_students s join classes c on c.id = s.class_id
      where s.student_user_id = ${studentId} and s.active and c.school_id = ${caller.schoolId} limit 1`;
    return found(inSchool ? 'principal' : null);
  }
  if (holds(caller, 'VIEW_ORGANIZATION')) return found('manager');
  return found(null);
}
